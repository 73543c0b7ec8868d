import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import { isHexSha1, SHA1_MATCHERS } from "./hex-sha1";
import { payloadId, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmacWith, signingBytes } from "./sign-helpers";

const HEADER = "x-vercel-signature";
const DISPLAY = "x-vercel-signature";

/**
 * Vercel (vercel.com/docs/webhooks/webhooks-api, "Securing webhooks"): `x-vercel-signature: <hex HMAC-SHA1 of the
 * body>`, keyed by the webhook's secret, or an integration's client secret (UTF-8). No time is signed. The type is
 * the body's `type` (`deployment.succeeded`), the dedup id its `id`, both signed.
 */
export const VERCEL: Scheme = /* @__PURE__ */ defineScheme({
  name: "vercel",
  about: {
    sender: "Vercel",
    docs: "https://vercel.com/docs/webhooks/webhooks-api",
    headers: [HEADER],
    signs: "HMAC-SHA1 of the body, hex",
    secret: "the webhook's secret (or the integration's client secret), its UTF-8 bytes",
    replay: "none: no time is signed; a capture is a duplicate until the store forgets it",
    dedup: { key: "the body's `id`", signed: true },
    testedAgainst: "Vercel's documented algorithm, written out in the test (Vercel publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const hex = requiredHeader(headers, HEADER, DISPLAY);
    if (!isHexSha1(hex)) throw noSignature(DISPLAY, "HMAC-SHA1 (40 lowercase hex)");
    const content = { prefix: "", payload, signatures: [hex], label: DISPLAY, matchers: SHA1_MATCHERS };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: payloadType,
  idOf: payloadId,
  sign(payload, secret) {
    return { [HEADER]: hmacWith("sha1", secret, "", signingBytes(payload, secret)).toString("hex") };
  },
});

/**
 * Vercel's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { vercel } from "@tidings/core/schemes";
 *
 * type Events = { "deployment.succeeded": { id: string; payload: { deployment: { id: string; url: string } } } };
 *
 * export const receiver = createReceiver({ scheme: vercel<Events>(), secret: process.env.VERCEL_WEBHOOK_SECRET! }).on(
 *   "deployment.succeeded",
 *   ({ payload }) => console.log("live at", payload.deployment.url),
 * );
 * ```
 */
export function vercel<Events extends EventMap = EventMap>(): Scheme<Events> {
  return VERCEL as Scheme<Events>;
}
