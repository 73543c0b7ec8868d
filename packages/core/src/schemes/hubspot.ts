import { hmacMatchers } from "../crypto/hmac-matchers";
import { UTF8_SECRET } from "../crypto/secret-kind";
import { WebhookVerificationError } from "../errors";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { encoder } from "../ground/utf8";
import { digitsValue } from "../verification/digits";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { malformed, noSignature, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";
import { requireRequest } from "./signed-request";

const HEADER = "x-hubspot-signature-v3";
const DISPLAY = "X-HubSpot-Signature-v3";
const TIMESTAMP = "x-hubspot-request-timestamp";
const TIMESTAMP_DISPLAY = "X-HubSpot-Request-Timestamp";
const decoder = /* @__PURE__ */ new TextDecoder();
// The default HMAC-SHA256 signs no suffix: these do.
const SHA256 = /* @__PURE__ */ hmacMatchers("sha256");
// The escapes HubSpot decodes in the URI it signs; every other one (`%20`, `%23`, `%25`…) stays as it is.
const DECODED = /%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi;
// `contact.creation`, `deal.propertyChange`, `object.creation`: what HubSpot names a subscription.
const SUBSCRIPTION = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;

/** The URI as HubSpot signs it: `%3A` `%2F` `%3F` `%40` `%21` `%24` `%27` `%28` `%29` `%2A` `%2C` `%3B` decoded. */
export const hubspotUri = (url: string): string =>
  url.indexOf("%") === -1
    ? url
    : url.replace(DECODED, (escaped) => String.fromCharCode(Number.parseInt(escaped.slice(1), 16)));

/** The body followed by the timestamp's text, as HubSpot signs them after the method and URI. */
function bodyThenTimestamp(body: Uint8Array, timestampText: string): Uint8Array {
  const tail = encoder.encode(timestampText);
  const bytes = new Uint8Array(body.length + tail.length);
  bytes.set(body);
  bytes.set(tail, body.length);
  return bytes;
}

/** A webhook's batch as `{ events }`; any other JSON object (a workflow action's, a CRM card's) as it is. */
function parseHubSpot(payload: Uint8Array): DeliveryEvent {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(payload));
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The body is not JSON.");
  }
  if (Array.isArray(value)) return { events: value };
  if (typeof value === "object" && value !== null) return value as DeliveryEvent;
  throw new WebhookVerificationError("invalid_payload", "The body is neither a JSON array of events nor an object.");
}

/** `subscriptionId.eventId.occurredAt` of each event of a batch, all of them numbers; else undefined. */
function batchId(events: readonly unknown[]): string | undefined {
  if (events.length === 0) return undefined;
  const ids: string[] = [];
  for (const event of events) {
    const { subscriptionId, eventId, occurredAt } = (event ?? {}) as Record<string, unknown>;
    if (![subscriptionId, eventId, occurredAt].every(Number.isSafeInteger)) return undefined;
    ids.push(`${subscriptionId}.${eventId}.${occurredAt}`);
  }
  return ids.join(",");
}

/**
 * HubSpot, v3 signatures (developers.hubspot.com, "Validating requests"): `X-HubSpot-Signature-v3: <base64 HMAC-SHA256
 * of method + URI + body + X-HubSpot-Request-Timestamp>`, keyed by the app's client secret (UTF-8); the timestamp is
 * in milliseconds and a request older than 5 minutes is refused. The URI is the URL the Receiver rebuilds (`publicUrl`,
 * `trustProxy`), with the escapes HubSpot documents decoded (`%3A` `%2F` `%3F` `%40` `%21` `%24` `%27` `%28` `%29`
 * `%2A` `%2C` `%3B`).
 *
 * A webhook's body is a JSON array of up to 100 events, of any of the app's subscriptions at once: the event is
 * `{ events }`, typed `batch`, so that one handler sees every event and none is lost to a type nobody registered (route
 * inside it on each event's `subscriptionType`). A JSON object (a workflow action's request) is the event, typed by
 * its `subscriptionType` where it has one. HubSpot signs each retry afresh (a new timestamp, a new `attemptNumber`), so
 * a batch is deduplicated by each event's `subscriptionId`, `eventId` and `occurredAt` (signed; HubSpot does not
 * promise `eventId` alone is unique), anything else by the signature.
 */
export const HUBSPOT: Scheme = /* @__PURE__ */ defineScheme({
  name: "hubspot",
  signatureHeader: HEADER,
  readsRequest: true,
  about: {
    sender: "HubSpot (v3 signatures)",
    docs: "https://developers.hubspot.com/docs/apps/legacy-apps/authentication/validating-requests",
    headers: [HEADER, TIMESTAMP],
    signs: "HMAC-SHA256 of `<method><URI><body><timestamp ms>`, base64; the URI with some %-escapes decoded",
    secret: "the app's client secret, UTF-8",
    replay: "5 minutes, from `X-HubSpot-Request-Timestamp` (milliseconds)",
    dedup: { key: "each event's `subscriptionId`.`eventId`.`occurredAt`; else the signature", signed: true },
    testedAgainst: "`@hubspot/api-client` 14: both directions (Signature.isValid, getSignature, v3)",
  },
  read(payload, headers, secrets, toleranceSeconds, request) {
    const { method, url } = requireRequest(request, "HubSpot signs the method and URI it called");
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP_DISPLAY);
    const milliseconds = digitsValue(timestampText);
    if (milliseconds < 0) throw malformed(TIMESTAMP_DISPLAY, "not 1 to 15 digits");
    const timestamp = Math.floor(milliseconds / 1000);
    if (!isBase64Sha256(value)) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const content = {
      prefix: method + hubspotUri(url),
      payload,
      suffix: timestampText,
      matchers: SHA256,
      signatures: [value],
      encoding: "base64" as const,
      label: "v3",
      format: UTF8_SECRET,
    };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  parse: parseHubSpot,
  typeOf(event) {
    if (Array.isArray(event.events)) return "batch";
    const type = nonEmptyString(event.subscriptionType);
    return type !== undefined && SUBSCRIPTION.test(type) ? type : undefined;
  },
  idOf: (event) => (Array.isArray(event.events) ? batchId(event.events) : undefined),
  sign(payload, secret, options) {
    const url = options?.url;
    if (url === undefined) throw new TypeError("HubSpot signs the URI: give sign() options.url");
    const bytes = signingBytes(payload, secret);
    const timestampText = String(signingTime(options?.timestamp) * 1000);
    const prefix = (options?.method ?? "POST").toUpperCase() + hubspotUri(url);
    return {
      [TIMESTAMP]: timestampText,
      [HEADER]: hmac(secret, prefix, bodyThenTimestamp(bytes, timestampText)).toString("base64"),
    };
  },
});

/**
 * HubSpot's scheme (v3 signatures): give the Receiver `publicUrl`, since HubSpot signs the URI.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { hubspot } from "@tidings/core/schemes";
 *
 * type HubSpotEvent = { subscriptionType: string; objectId: number; propertyName?: string; propertyValue?: string };
 *
 * // A webhook batch: every event of the request, whatever its subscription.
 * export const receiver = createReceiver({
 *   scheme: hubspot<{ batch: { events: HubSpotEvent[] } }>(),
 *   secret: process.env.HUBSPOT_CLIENT_SECRET!,
 *   publicUrl: "https://hooks.example.com",
 * }).on("batch", ({ events }) => {
 *   for (const event of events) console.log(event.subscriptionType, event.objectId);
 * });
 * ```
 */
export function hubspot<Events extends EventMap = EventMap>(): Scheme<Events> {
  return HUBSPOT as Scheme<Events>;
}
