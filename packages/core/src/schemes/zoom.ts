import { requireNodeCrypto } from "../crypto/node-crypto";
import { UTF8_SECRET } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isHexSha256 } from "../verification/formats";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "x-zm-signature";
const DISPLAY = "x-zm-signature";
const TIMESTAMP = "x-zm-request-timestamp";
const VALIDATION = "endpoint.url_validation";

const objectOf = (value: unknown) =>
  typeof value === "object" && value !== null ? (value as DeliveryEvent) : undefined;

/**
 * The event, its `event_ts` and its object's id: what one event's deliveries share (Zoom names no event id). Undefined
 * (dedup by the signature) when one is missing.
 */
function zoomId(event: DeliveryEvent): string | undefined {
  const type = nonEmptyString(event.event);
  const at = event.event_ts;
  const object = objectOf(objectOf(event.payload)?.object);
  const id =
    object &&
    (nonEmptyString(object.uuid) ?? (typeof object.id === "number" ? String(object.id) : nonEmptyString(object.id)));
  return type && typeof at === "number" && id ? `zoom:${type}:${at}:${id}` : undefined;
}

/**
 * Zoom (developers.zoom.us, "Using webhooks"): `x-zm-signature: v0=<hex HMAC-SHA256 of
 * "v0:<x-zm-request-timestamp>:<body>">` keyed by the app's secret token. `endpoint.url_validation` is answered
 * `{ plainToken, encryptedToken }`, the token's HMAC under the secret that verified it (node:crypto).
 */
export const ZOOM: Scheme = /* @__PURE__ */ defineScheme({
  name: "zoom",
  signatureHeader: HEADER,
  about: {
    sender: "Zoom",
    docs: "https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events",
    headers: [HEADER, TIMESTAMP],
    signs: "HMAC-SHA256 of `v0:<x-zm-request-timestamp>:<body>`, hex",
    secret: "the app's secret token, as UTF-8 HMAC key",
    replay: "5 minutes (Zoom documents none), from `x-zm-request-timestamp`",
    dedup: { key: "`event`, `event_ts` and the object's `uuid` (or `id`)", signed: true },
    handshake: "`endpoint.url_validation`: `{ plainToken, encryptedToken }`, once verified",
    testedAgainst: "Zoom's documented algorithm (no SDK verifies), written out in the test",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP);
    const timestamp = timestampOf(timestampText, TIMESTAMP);
    const hex = value.startsWith("v0=") ? value.slice(3) : "";
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "v0=<64 lowercase hex>");
    const content = { prefix: `v0:${timestampText}:`, payload, signatures: [hex], label: "v0", format: UTF8_SECRET };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  typeOf: (event) => nonEmptyString(event.event),
  idOf: zoomId,
  respond(event, { secret }) {
    const plainToken = objectOf(event.payload)?.plainToken;
    if (event.event !== VALIDATION || typeof plainToken !== "string") return undefined;
    const encryptedToken = requireNodeCrypto("respond").createHmac("sha256", secret).update(plainToken).digest("hex");
    return answer(JSON.stringify({ plainToken, encryptedToken }));
  },
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return {
      [TIMESTAMP]: String(timestamp),
      [HEADER]: `v0=${hmac(secret, `v0:${timestamp}:`, bytes).toString("hex")}`,
    };
  },
});

/**
 * Zoom's scheme: typed by `event` (`meeting.started`; a handler for `meeting` gets every meeting event).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { zoom } from "@tidings/core/schemes";
 *
 * type Started = { event: "meeting.started"; payload: { object: { id: number; topic: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: zoom<{ "meeting.started": Started }>(),
 *   secret: process.env.ZOOM_WEBHOOK_SECRET_TOKEN!,
 * }).on("meeting.started", ({ payload }) => console.log("started:", payload.object.topic));
 * ```
 */
export function zoom<Events extends EventMap = EventMap>(): Scheme<Events> {
  return ZOOM as Scheme<Events>;
}
