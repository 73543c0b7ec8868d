import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import { isHexSha1, SHA1_MATCHERS } from "./hex-sha1";
import { nonEmptyString, payloadId } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmacWith, signingBytes } from "./sign-helpers";

const HEADER = "x-hub-signature";
const DISPLAY = "X-Hub-Signature";

/**
 * Intercom (developers.intercom.com/docs/webhooks, "Signed notifications"): `X-Hub-Signature: sha1=<hex HMAC-SHA1 of
 * the body>`, keyed by the app's client secret (UTF-8). No time is signed. The type is the body's `topic`
 * (`conversation.user.created`), the dedup id its `id` (`notif_…`), both signed; a retry keeps the id though its
 * `delivery_attempts` (and so its signature) changes.
 */
export const INTERCOM: Scheme = /* @__PURE__ */ defineScheme({
  name: "intercom",
  about: {
    sender: "Intercom",
    docs: "https://developers.intercom.com/docs/webhooks",
    headers: [HEADER],
    signs: "HMAC-SHA1 of the body, hex, after `sha1=`",
    secret: "the app's client secret, its UTF-8 bytes",
    replay: "none: no time is signed; a capture is a duplicate until the store forgets it",
    dedup: { key: "the body's `id` (`notif_…`)", signed: true },
    testedAgainst: "Intercom's documented algorithm, written out in the test (no Intercom SDK here verifies webhooks)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const hex = value.startsWith("sha1=") ? value.slice(5) : "";
    if (!isHexSha1(hex)) throw noSignature(DISPLAY, "sha1=<40 lowercase hex>");
    const content = { prefix: "", payload, signatures: [hex], label: "sha1", matchers: SHA1_MATCHERS };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (event) => nonEmptyString(event.topic),
  idOf: payloadId,
  sign(payload, secret) {
    return { [HEADER]: `sha1=${hmacWith("sha1", secret, "", signingBytes(payload, secret)).toString("hex")}` };
  },
});

/**
 * Intercom's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { intercom } from "@tidings/core/schemes";
 *
 * type Events = {
 *   "conversation.user.created": { topic: "conversation.user.created"; data: { item: { id: string } } };
 * };
 *
 * export const receiver = createReceiver({
 *   scheme: intercom<Events>(),
 *   secret: process.env.INTERCOM_CLIENT_SECRET!,
 * }).on("conversation.user.created", ({ data }) => console.log("new conversation:", data.item.id));
 * ```
 */
export function intercom<Events extends EventMap = EventMap>(): Scheme<Events> {
  return INTERCOM as Scheme<Events>;
}
