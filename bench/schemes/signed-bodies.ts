/**
 * Deliveries of the senders that sign inside the body, whose scheme's `sign` cannot make one: written as each
 * sender's documentation says (the scheme's `about.signs`), keyed by scheme name.
 */
import { createHmac } from "node:crypto";

export type SignedBody = (
  size: number,
  secret: string,
  now: number,
) => { payload: Buffer; headers: Record<string, string> };

/** `head` + padding + `tail`, exactly `size` bytes (or as short as it can be). */
export function padded(size: number, head: string, tail: string): Buffer {
  return Buffer.from(head + "x".repeat(Math.max(0, size - head.length - tail.length)) + tail);
}

const JSON_TYPE = { "content-type": "application/json" };

export const SIGNED_BODIES: Readonly<Record<string, SignedBody>> = {
  // HMAC-SHA256 of `<timestamp><token>`, hex, in the body's `signature`; `event-data` is not signed.
  mailgun(size, secret, now) {
    const token = "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0";
    const signature = createHmac("sha256", secret).update(`${now}${token}`).digest("hex");
    const head = `{"signature":{"timestamp":"${now}","token":"${token}","signature":"${signature}"},"event-data":{"event":"delivered","id":"evt_bench","pad":"`;
    return { payload: padded(size, head, `"}}`), headers: JSON_TYPE };
  },
  // HMAC-SHA256 (the hex-decoded key) of the item's `psp:original:merchant:reference:value:currency:code:success`, base64.
  adyen(size, secret, _now) {
    const item = ["7914073381342284", "", "BenchMerchant", "ref_bench", "1000", "EUR", "AUTHORISATION", "true"];
    const signature = createHmac("sha256", Buffer.from(secret, "hex")).update(item.join(":")).digest("base64");
    const head = `{"live":"false","notificationItems":[{"NotificationRequestItem":{"additionalData":{"hmacSignature":"${signature}"},"amount":{"currency":"EUR","value":1000},"eventCode":"AUTHORISATION","merchantAccountCode":"BenchMerchant","merchantReference":"ref_bench","pspReference":"7914073381342284","success":"true","reason":"`;
    return { payload: padded(size, head, `"}}]}`), headers: JSON_TYPE };
  },
};
