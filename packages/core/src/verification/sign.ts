import { hmacWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import { payloadBytes, type RawPayload } from "./payload";

export interface SignOptions {
  /** Unix seconds to sign with. Default: now. */
  timestamp?: number;
}

/**
 * Signs a payload the way the service does; returns the `Service-Signature` header value. For tests and tools.
 *
 * @example
 * ```ts
 * import { createReceiver, SIGNATURE_HEADER, sign } from "@tidings/core";
 *
 * // In a test: a delivery signed as the service signs it, handed to the Receiver.
 * const receiver = createReceiver({ secret: "whsec_test" });
 * const event = { id: "evt_1", type: "message.sent", data: { id: "msg_1", status: "sent", channel: "sms" } };
 * const rawBody = new TextEncoder().encode(JSON.stringify(event));
 *
 * const result = await receiver.receive({ rawBody, headers: { [SIGNATURE_HEADER]: sign(rawBody, "whsec_test") } });
 * console.log(result.status, result.body); // 200 {"received":true}
 * ```
 */
export function sign(payload: RawPayload, secret: string, options?: SignOptions): string {
  const bytes = payloadBytes(payload);
  if (bytes === undefined) throw new TypeError("payload must be bytes or a string");
  if (typeof secret !== "string" || secret === "") throw new TypeError("secret must be a non-empty string");
  const timestamp = options?.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("timestamp must be whole Unix seconds ≥ 0");
  }
  const digest = hmacWithNodeCrypto(requireNodeCrypto("sign"), secret, `${timestamp}.`, bytes) as Buffer;
  return `t=${timestamp},v1=${digest.toString("hex")}`;
}
