import { constantTimeEqual } from "../crypto/constant-time";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { encoder } from "../ground/utf8";
import { answer } from "./answer";
import { echoable, getQuery } from "./challenge";
import { defineScheme, type SchemeParts } from "./define";
import { HUB_HEADER, hubSignatureOf, readHubSignature, signHub } from "./hub-signature";
import type { Scheme } from "./scheme";

// Meta's object names and change fields: lower-case words joined by underscores (`whatsapp_business_account`).
const WORD = /^[a-z0-9_]+$/;

/** The one `field` every change of every entry names, if there is one and it is a word. */
function sharedField(entries: unknown): string | undefined {
  if (!Array.isArray(entries)) return undefined;
  let shared: string | undefined;
  for (const entry of entries) {
    const changes = (entry as DeliveryEvent | null)?.changes;
    if (!Array.isArray(changes)) return undefined;
    for (const change of changes) {
      const field = (change as DeliveryEvent | null)?.field;
      if (typeof field !== "string" || !WORD.test(field) || (shared !== undefined && field !== shared))
        return undefined;
      shared = field;
    }
  }
  return shared;
}

/** `<object>.<field>` when every change names one field (`whatsapp_business_account.messages`), else `<object>`. */
function metaType(event: DeliveryEvent): string | undefined {
  const { object } = event;
  if (typeof object !== "string" || !WORD.test(object)) return undefined;
  const field = sharedField(event.entry);
  return field === undefined ? object : `${object}.${field}`;
}

/**
 * Meta's Graph API webhooks (WhatsApp Business, Instagram, Messenger, and any other object an app subscribes to), POST
 * deliveries (developers.facebook.com/docs/graph-api/webhooks/getting-started): `X-Hub-Signature-256: sha256=<hex
 * HMAC-SHA256 of the body>`, keyed by the app secret (UTF-8), no time signed. The GET verification request
 * (`hub.mode=subscribe`, `hub.verify_token`, `hub.challenge`) is answered with the challenge when the verify token is
 * the one given to `meta({ verifyToken })`, compared in constant time, and the route takes GET as well as POST.
 *
 * The type is the body's `object`, and `<object>.<field>` when every change of every entry names one `field`
 * (`whatsapp_business_account.messages`; a handler for `whatsapp_business_account` sees those too); Messenger's
 * `messaging` entries are typed by the object alone (`page`). A body names no id of its own, so it is deduplicated by
 * its signature, `meta:<hex>`, which Meta's retries of the same batch repeat.
 */
const META_PARTS: SchemeParts = {
  name: "meta",
  about: {
    sender: "Meta (WhatsApp, Instagram, Messenger)",
    docs: "https://developers.facebook.com/docs/graph-api/webhooks/getting-started#event-notifications",
    headers: [HUB_HEADER],
    signs: "HMAC-SHA256 of the body, hex, as `sha256=<hex>`",
    secret: "the app secret, its UTF-8 bytes as the HMAC key",
    replay: "none: no time is signed",
    dedup: { key: "`meta:<the hex signature>`: the body names no delivery id", signed: true },
    handshake:
      "GET `hub.mode=subscribe`: `hub.challenge` echoed as text/plain when `hub.verify_token` is `meta({ verifyToken })`'s (the route must take GET too)",
    testedAgainst: "Meta's documented algorithm (it publishes no Node SDK that verifies): both directions",
  },
  signatureHeader: HUB_HEADER,
  read: readHubSignature,
  typeOf: metaType,
  idOf: (_event, _body, headers) => `meta:${hubSignatureOf(headers)}`,
  sign: signHub,
};

export const META: Scheme = /* @__PURE__ */ defineScheme(META_PARTS);

/** Meta's GET verification request: `hub.challenge` echoed when `hub.verify_token` is the app's verify token. */
function verification(verifyToken: string): NonNullable<SchemeParts["handshake"]> {
  const expected = encoder.encode(verifyToken);
  return (request) => {
    const query = getQuery(request);
    if (query?.get("hub.mode") !== "subscribe") return undefined;
    const token = encoder.encode(query.get("hub.verify_token") ?? "");
    const challenge = query.get("hub.challenge");
    return constantTimeEqual(token, expected) && echoable(challenge)
      ? answer(challenge, "text/plain; charset=utf-8")
      : undefined;
  };
}

/** What `meta()` may be told: the verify token set beside the callback URL in the app's dashboard. */
export interface MetaOptions {
  /** Answers Meta's GET verification request; without it, that request is answered 405. */
  verifyToken?: string | undefined;
}

/**
 * Meta's webhooks (WhatsApp Business, Instagram, Messenger): POST deliveries, and with `verifyToken` the GET request
 * that verifies the callback URL (mount the route for GET too).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { meta } from "@tidings/core/schemes";
 *
 * type Change = { field: "messages"; value: { messages?: { id: string; from: string }[] } };
 * type Events = { "whatsapp_business_account.messages": { object: string; entry: { id: string; changes: Change[] }[] } };
 *
 * const scheme = meta<Events>({ verifyToken: process.env.META_VERIFY_TOKEN! });
 * export const receiver = createReceiver({ scheme, secret: process.env.META_APP_SECRET! }).on(
 *   "whatsapp_business_account.messages",
 *   ({ entry }) => {
 *     for (const { changes } of entry) for (const { value } of changes) console.log(value.messages?.length ?? 0, "messages");
 *   },
 * );
 * ```
 */
export function meta<Events extends EventMap = EventMap>(options?: MetaOptions): Scheme<Events> {
  const verifyToken = options?.verifyToken;
  if (verifyToken === undefined) return META as Scheme<Events>;
  if (typeof verifyToken !== "string" || verifyToken === "")
    throw new TypeError("verifyToken must be a non-empty string");
  return defineScheme({ ...META_PARTS, handshake: verification(verifyToken) }) as Scheme<Events>;
}
