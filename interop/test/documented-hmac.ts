// Senders whose SDKs have no webhook code sign a body's HMAC-SHA256, hex, as their docs write it out; the check
// compares in constant time, as their docs ask.
import { createHmac, timingSafeEqual } from "node:crypto";

export const hexHmac = (body: string, secret: string): string =>
  createHmac("sha256", secret).update(body).digest("hex");

export function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
