import { base64ToBytes } from "./base64";
import { constantTimeEqual } from "./constant-time";
import { hexToBytes } from "./hex";
import { remember } from "./key-cache";
import type { NodeCrypto } from "./node-crypto";
import { UTF8_SECRET } from "./secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "./signed-content";
import { signedBytes } from "./web-crypto";

/**
 * The hash functions senders use for their HMACs.
 *
 * @example
 * ```ts
 * import { type HmacAlgorithm, hmacMatchers } from "@tidings/core/schemes";
 *
 * // One set of matchers per hash, made once at module level.
 * export const MATCHERS = Object.fromEntries(
 *   (["sha1", "sha512"] as const).map((algorithm: HmacAlgorithm) => [algorithm, hmacMatchers(algorithm)]),
 * );
 * ```
 */
export type HmacAlgorithm = "sha1" | "sha256" | "sha512";

const WEB_NAMES = { sha1: "SHA-1", sha256: "SHA-256", sha512: "SHA-512" } as const;

/**
 * Matchers for an HMAC with another hash than SHA-256 (Twilio's and Intercom's SHA-1, a SHA-512 sender), or over other
 * bytes than `prefix` + body: the signed content's `signatures` (hex, or base64 with `encoding`), keyed by its
 * `format` (default: the secret's UTF-8 bytes). Keys are made once per secret and algorithm.
 *
 * @example
 * ```ts
 * import { defineScheme, hmacMatchers, requiredHeader } from "@tidings/core/schemes";
 *
 * const SHA1 = hmacMatchers("sha1");
 *
 * // A sender that signs the body with HMAC-SHA1, hex, in `X-Acme-Signature: sha1=<hex>`.
 * export const acme = defineScheme({
 *   name: "acme",
 *   signatureHeader: "x-acme-signature",
 *   read(payload, headers, secrets, toleranceSeconds) {
 *     const hex = requiredHeader(headers, "x-acme-signature", "X-Acme-Signature").replace(/^sha1=/, "");
 *     const content = { prefix: "", payload, signatures: [hex], label: "sha1", matchers: SHA1 };
 *     return { content, secrets, timestamp: undefined, toleranceSeconds };
 *   },
 *   typeOf: (event) => (typeof event.type === "string" ? event.type : undefined),
 *   idOf: (event) => (typeof event.id === "string" ? event.id : undefined),
 *   sign: () => {
 *     throw new Error("acme signs its own deliveries");
 *   },
 * });
 * ```
 */
export function hmacMatchers(algorithm: HmacAlgorithm): Matchers {
  const nodeKeys = new Map<SecretFormat, Map<string, unknown>>();
  const webKeys = new Map<SecretFormat, Map<string, Promise<CryptoKey> | null>>();
  const cacheOf = <Key>(caches: Map<SecretFormat, Map<string, Key>>, format: SecretFormat) => {
    let cache = caches.get(format);
    if (cache === undefined) {
      cache = new Map<string, Key>();
      caches.set(format, cache);
    }
    return cache;
  };
  return {
    node(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): SignatureMatch | undefined {
      const format = content.format ?? UTF8_SECRET;
      const cache = cacheOf(nodeKeys, format) as Map<string, import("node:crypto").KeyObject | null>;
      const candidates = content.signatures.map((text) => Buffer.from(text, content.encoding ?? "hex"));
      for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
        const secret = secrets[secretIndex] as string;
        let key = cache.get(secret);
        if (key === undefined) {
          const bytes = format.keyBytes(secret);
          key = remember(cache, secret, bytes ? crypto.createSecretKey(bytes) : null);
        }
        if (key === null) continue;
        const mac = crypto.createHmac(algorithm, key).update(content.prefix).update(content.payload);
        const expected = (content.suffix ? mac.update(content.suffix) : mac).digest();
        for (let i = 0; i < candidates.length; i++) {
          const candidate = candidates[i] as Buffer;
          if (candidate.length === expected.length && crypto.timingSafeEqual(expected, candidate)) {
            return { secretIndex, signature: content.signatures[i] as string };
          }
        }
      }
      return undefined;
    },
    async web(content: SignedContent, secrets: readonly string[]): Promise<SignatureMatch | undefined> {
      const format = content.format ?? UTF8_SECRET;
      const cache = cacheOf(webKeys, format);
      const candidates = content.signatures.map(content.encoding ? base64ToBytes : hexToBytes);
      const data = signedBytes(content.prefix, content.payload, content.suffix);
      for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
        const secret = secrets[secretIndex] as string;
        let key = cache.get(secret);
        if (key === undefined) {
          const bytes = format.keyBytes(secret);
          const imported =
            bytes &&
            crypto.subtle.importKey(
              "raw",
              bytes as Uint8Array<ArrayBuffer>,
              { name: "HMAC", hash: WEB_NAMES[algorithm] },
              false,
              ["sign"],
            );
          imported?.catch(() => cache.delete(secret));
          key = remember(cache, secret, imported ?? null);
        }
        if (key === null) continue;
        const expected = new Uint8Array(await crypto.subtle.sign("HMAC", await key, data));
        for (let i = 0; i < candidates.length; i++) {
          if (constantTimeEqual(expected, candidates[i] as Uint8Array)) {
            return { secretIndex, signature: content.signatures[i] as string };
          }
        }
      }
      return undefined;
    },
  };
}
