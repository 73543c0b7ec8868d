import { hmacSecretKind } from "../crypto/secret-kind";
import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";
import { timedPairsReader } from "./timed-pairs";

const HEADER = "paddle-signature";
const DISPLAY = "Paddle-Signature";
const readPairs = /* @__PURE__ */ timedPairsReader({ separator: ";", time: "ts", signature: "h1", display: DISPLAY });
// Paddle's API keys: given where the notification destination's secret goes, they verify nothing.
const API_KEY = /^pdl_(live|sdbx)_apikey_/;

/**
 * Paddle Billing (developer.paddle.com/webhooks/signature-verification): `Paddle-Signature: ts=<unix>;h1=<hex
 * HMAC-SHA256 of "<ts>:<body>">`, keyed by the notification destination's secret key (`pdl_ntfset_…`, its UTF-8
 * bytes); several `h1` while a secret is rotated. The type is the body's `event_type` (`transaction.completed`), the
 * dedup id its `event_id`, both signed. Paddle Classic's `p_signature` (form fields, RSA) is another scheme.
 */
export const PADDLE: Scheme = /* @__PURE__ */ defineScheme({
  name: "paddle",
  about: {
    sender: "Paddle (Billing)",
    docs: "https://developer.paddle.com/webhooks/signature-verification",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<ts>:<body>`, hex, in `h1` (several while a secret is rotated)",
    secret: "the notification destination's secret key (`pdl_ntfset_…`), its UTF-8 bytes; an API key is refused",
    replay:
      "the Receiver's `toleranceSeconds` (default 5 minutes) from `ts`; Paddle's SDKs allow 5 seconds, which refuses late retries",
    dedup: { key: "the body's `event_id`", signed: true },
    testedAgainst: "`@paddle/paddle-node-sdk` 3 (`Webhooks.isSignatureValid`, `unmarshal`): both directions",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const { timestampText, timestamp, signatures } = readPairs(requiredHeader(headers, HEADER, DISPLAY));
    const content = { prefix: `${timestampText}:`, payload, signatures, label: "h1" };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  secretKind(secret) {
    if (API_KEY.test(secret)) {
      throw new TypeError("A Paddle webhook secret is the notification destination's secret key, not an API key");
    }
    return hmacSecretKind(secret);
  },
  typeOf: (event) => nonEmptyString(event.event_type),
  idOf: (event) => nonEmptyString(event.event_id),
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return { [HEADER]: `ts=${timestamp};h1=${hmac(secret, `${timestamp}:`, bytes).toString("hex")}` };
  },
});

/**
 * Paddle Billing's scheme; type handlers with the SDK's event classes, or the fields your handlers read.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { paddle } from "@tidings/core/schemes";
 *
 * type Events = {
 *   "transaction.completed": { event_id: string; data: { id: string; customer_id: string | null } };
 * };
 *
 * export const receiver = createReceiver({
 *   scheme: paddle<Events>(),
 *   secret: process.env.PADDLE_WEBHOOK_SECRET!, // pdl_ntfset_…
 * }).on("transaction.completed", ({ data }) => console.log("paid:", data.id));
 * ```
 */
export function paddle<Events extends EventMap = EventMap>(): Scheme<Events> {
  return PADDLE as Scheme<Events>;
}
