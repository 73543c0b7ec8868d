import { createHmac, timingSafeEqual } from "node:crypto";
import { SECRET } from "../lib/deliveries";

const TOLERANCE_SECONDS = 300;
const decoder = new TextDecoder();

/**
 * What a careful hand-written route does with plain node:crypto: split the header, HMAC `${t}.` + body, compare
 * every v1 in constant time, check the time window, parse the JSON. Returns the event, or undefined to answer 400.
 */
export function verifyInline(body: Uint8Array, header: string | undefined): unknown {
  if (header === undefined) return undefined;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const pair of header.split(",")) {
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator).trim();
    if (name === "t") timestamp = pair.slice(separator + 1).trim();
    else if (name === "v1") signatures.push(pair.slice(separator + 1).trim());
  }
  if (timestamp === undefined || !/^\d{1,15}$/.test(timestamp)) return undefined;
  const expected = createHmac("sha256", SECRET).update(`${timestamp}.`).update(body).digest();
  const matched = signatures.some((signature) => {
    const candidate = Buffer.from(signature, "hex");
    return candidate.length === expected.length && timingSafeEqual(expected, candidate);
  });
  if (!matched || Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > TOLERANCE_SECONDS) return undefined;
  try {
    return JSON.parse(decoder.decode(body));
  } catch {
    return undefined;
  }
}
