import type { EventMap } from "../event-map";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import { nonEmptyString, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";
import { requireRequest } from "./signed-request";

const HEADER = "x-square-hmacsha256-signature";
const DISPLAY = "x-square-hmacsha256-signature";

/**
 * Square (developer.squareup.com/docs/webhooks/step3validate): `x-square-hmacsha256-signature: <base64 HMAC-SHA256 of
 * the notification URL + the body>`, keyed by the subscription's signature key (UTF-8). The URL is the one the Receiver
 * rebuilds (`publicUrl`, `trustProxy`), which must be the notification URL exactly as the subscription names it. The
 * type is the body's `type` (`payment.updated`), the dedup id its `event_id`, both signed. No time is signed (the
 * body's `created_at` is, but nothing bounds it), so no replay window applies. The legacy `x-square-signature`
 * (HMAC-SHA1) is not read.
 */
export const SQUARE: Scheme = /* @__PURE__ */ defineScheme({
  name: "square",
  signatureHeader: HEADER,
  readsRequest: true,
  about: {
    sender: "Square",
    docs: "https://developer.squareup.com/docs/webhooks/step3validate",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<notification URL><body>`, base64",
    secret: "the subscription's signature key, UTF-8",
    replay: "none: no time is signed",
    dedup: { key: "`event_id`", signed: true },
    testedAgainst: "`square` 46: both directions (WebhooksHelper.verifySignature)",
  },
  read(payload, headers, secrets, toleranceSeconds, request) {
    const { url } = requireRequest(request, "Square signs its notification URL");
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!isBase64Sha256(value)) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const content = { prefix: url, payload, signatures: [value], encoding: "base64" as const, label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: payloadType,
  idOf: (event) => nonEmptyString(event.event_id),
  sign(payload, secret, options) {
    const url = options?.url;
    if (url === undefined) throw new TypeError("Square signs the notification URL: give sign() options.url");
    return { [HEADER]: hmac(secret, url, signingBytes(payload, secret)).toString("base64") };
  },
});

/**
 * Square's scheme: give the Receiver `publicUrl`, since Square signs the notification URL.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { square } from "@tidings/core/schemes";
 *
 * type Events = { "payment.updated": { event_id: string; data: { object: { payment: { id: string; status: string } } } } };
 *
 * export const receiver = createReceiver({
 *   scheme: square<Events>(),
 *   secret: process.env.SQUARE_SIGNATURE_KEY!,
 *   publicUrl: "https://hooks.example.com", // the notification URL, up to its path
 * }).on("payment.updated", ({ data }) => console.log(data.object.payment.id, data.object.payment.status));
 * ```
 */
export function square<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SQUARE as Scheme<Events>;
}
