import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { payloadId, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";
import { timedPairsReader } from "./timed-pairs";

const HEADER = "mux-signature";
const DISPLAY = "Mux-Signature";
const readPairs = /* @__PURE__ */ timedPairsReader({ separator: ",", time: "t", signature: "v1", display: DISPLAY });

/**
 * Mux (mux.com/docs/core/verify-webhook-signatures): `Mux-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * keyed by the webhook's signing secret (UTF-8), several `v1` allowed. The type is the body's `type`
 * (`video.asset.ready`), the dedup id its `id`, both signed.
 */
export const MUX: Scheme = /* @__PURE__ */ defineScheme({
  name: "mux",
  about: {
    sender: "Mux",
    docs: "https://www.mux.com/docs/core/verify-webhook-signatures",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<t>.<body>`, hex, in `v1`",
    secret: "the webhook's signing secret, its UTF-8 bytes",
    replay: "the Receiver's `toleranceSeconds` (default 5 minutes, as Mux's SDK) from `t`",
    dedup: { key: "the body's `id`", signed: true },
    testedAgainst: "`@mux/mux-node` 15 (`webhooks.verifySignature`, `unwrap`): both directions",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const { timestampText, timestamp, signatures } = readPairs(requiredHeader(headers, HEADER, DISPLAY));
    const content = { prefix: `${timestampText}.`, payload, signatures };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  typeOf: payloadType,
  idOf: payloadId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return { [HEADER]: `t=${timestamp},v1=${hmac(secret, `${timestamp}.`, bytes).toString("hex")}` };
  },
});

/**
 * Mux's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { mux } from "@tidings/core/schemes";
 *
 * type Events = { "video.asset.ready": { type: "video.asset.ready"; data: { id: string; duration: number } } };
 *
 * export const receiver = createReceiver({ scheme: mux<Events>(), secret: process.env.MUX_WEBHOOK_SECRET! }).on(
 *   "video.asset.ready",
 *   ({ data }) => console.log("ready:", data.id, data.duration),
 * );
 * ```
 */
export function mux<Events extends EventMap = EventMap>(): Scheme<Events> {
  return MUX as Scheme<Events>;
}
