import type { HmacAlgorithm } from "../crypto/hmac-matchers";
import { hmacWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import { UTF8_SECRET } from "../crypto/secret-kind";
import type { SecretFormat } from "../crypto/signed-content";
import { payloadBytes, type RawPayload } from "../verification/payload";

/**
 * The payload's bytes, for a scheme's `sign`; a TypeError for anything but bytes or a string, and for an empty secret.
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * import { signingBytes } from "@tidings/core/schemes";
 *
 * // The body of a test delivery, whether given as text or bytes.
 * export const acmeSignature = (payload: string | Uint8Array, secret: string) =>
 *   createHmac("sha256", secret).update(signingBytes(payload, secret)).digest("hex");
 * ```
 */
export function signingBytes(payload: RawPayload, secret: string): Uint8Array {
  const bytes = payloadBytes(payload);
  if (bytes === undefined) throw new TypeError("payload must be bytes or a string");
  if (typeof secret !== "string" || secret === "") throw new TypeError("secret must be a non-empty string");
  return bytes;
}

/**
 * Whole Unix seconds to sign with, for a scheme's `sign`: the option, or now; a TypeError for anything else.
 *
 * @example
 * ```ts
 * import { signingTime } from "@tidings/core/schemes";
 *
 * console.log(signingTime(undefined) <= Math.floor(Date.now() / 1000)); // true: now
 * console.log(signingTime(1764324000)); // 1764324000
 * ```
 */
export function signingTime(timestamp: number | undefined): number {
  const seconds = timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new TypeError("timestamp must be whole Unix seconds ≥ 0");
  return seconds;
}

/**
 * HMAC-SHA256 of `prefix` + the body with node:crypto, as the key's `format` reads the secret (default: its UTF-8
 * bytes, an ed25519 key refused); a TypeError for a secret that is no HMAC key.
 */
export function hmac(secret: string, prefix: string, bytes: Uint8Array, format: SecretFormat = UTF8_SECRET): Buffer {
  const digest = hmacWithNodeCrypto(requireNodeCrypto("sign"), secret, prefix, bytes, format);
  if (digest === undefined) throw new TypeError("Not an HMAC secret");
  return digest;
}

/** An HMAC with another hash than SHA-256, for a scheme's `sign` (what `hmacMatchers(algorithm)` verifies). */
export function hmacWith(
  algorithm: HmacAlgorithm,
  secret: string,
  prefix: string,
  bytes: Uint8Array,
  format: SecretFormat = UTF8_SECRET,
): Buffer {
  const key = format.keyBytes(secret);
  if (key === undefined) throw new TypeError("Not an HMAC secret");
  return requireNodeCrypto("sign").createHmac(algorithm, key).update(prefix).update(bytes).digest();
}
