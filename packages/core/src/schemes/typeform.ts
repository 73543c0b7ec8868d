import type { EventMap } from "../event-map";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "typeform-signature";
const DISPLAY = "Typeform-Signature";

/**
 * Typeform (typeform.com/developers/webhooks/secure-your-webhooks): `Typeform-Signature: sha256=<base64 HMAC-SHA256 of
 * the body>`, keyed by the webhook's secret (UTF-8), canonical base64 only (one spelling per signature). No time is
 * signed. The type is the body's `event_type` (`form_response`), the dedup id its `event_id`, both signed.
 */
export const TYPEFORM: Scheme = /* @__PURE__ */ defineScheme({
  name: "typeform",
  about: {
    sender: "Typeform",
    docs: "https://www.typeform.com/developers/webhooks/secure-your-webhooks/",
    headers: [HEADER],
    signs: "HMAC-SHA256 of the body, base64, after `sha256=`",
    secret: "the webhook's secret, its UTF-8 bytes",
    replay: "none: no time is signed; a capture is a duplicate until the store forgets it",
    dedup: { key: "the body's `event_id`", signed: true },
    testedAgainst: "Typeform's documented algorithm, written out in the test (Typeform publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const base64 = value.startsWith("sha256=") ? value.slice(7) : "";
    if (!isBase64Sha256(base64)) throw noSignature(DISPLAY, "sha256=<base64 HMAC-SHA256>");
    const content = { prefix: "", payload, signatures: [base64], encoding: "base64" as const, label: "sha256" };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (event) => nonEmptyString(event.event_type),
  idOf: (event) => nonEmptyString(event.event_id),
  sign(payload, secret) {
    return { [HEADER]: `sha256=${hmac(secret, "", signingBytes(payload, secret)).toString("base64")}` };
  },
});

/**
 * Typeform's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { typeform } from "@tidings/core/schemes";
 *
 * type Events = { form_response: { event_id: string; form_response: { form_id: string; token: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: typeform<Events>(),
 *   secret: process.env.TYPEFORM_WEBHOOK_SECRET!,
 * }).on("form_response", ({ form_response }) => console.log("answered:", form_response.form_id));
 * ```
 */
export function typeform<Events extends EventMap = EventMap>(): Scheme<Events> {
  return TYPEFORM as Scheme<Events>;
}
