import { createHmac, timingSafeEqual } from "node:crypto";

const decoder = new TextDecoder();

/**
 * The least any verifier must do, handed the header's `t` digits and `v1` hex ready-made (no parsing, no checks):
 * HMAC-SHA256 over `${t}.` + body, digest, decode the v1, compare in constant time.
 */
export function floorVerify(body: Uint8Array, timestampText: string, v1: string, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(`${timestampText}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(v1, "hex"));
}

/** The floor for `constructEvent`: the same, then the body decoded and parsed as JSON. */
export function floorVerifyAndParse(body: Uint8Array, timestampText: string, v1: string, secret: string): unknown {
  if (!floorVerify(body, timestampText, v1, secret)) throw new Error("floor: signature mismatch");
  return JSON.parse(decoder.decode(body));
}
