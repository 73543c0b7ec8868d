import { constantTimeEqual } from "./constant-time";
import { remember } from "./key-cache";
import type { NodeCrypto } from "./node-crypto";
import { UTF8_SECRET } from "./secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "./signed-content";
import { signedBytes } from "./web-crypto";

const encoder = /* @__PURE__ */ new TextEncoder();
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

// Each secret's bytes, read once per format (as HMAC keys are); `null`: the secret is no token as the format reads it.
const tokens = /* @__PURE__ */ new Map<SecretFormat, Map<string, Uint8Array | null>>();

function secretBytes(format: SecretFormat, secret: string): Uint8Array | null {
  let cache = tokens.get(format);
  if (cache === undefined) {
    cache = new Map();
    tokens.set(format, cache);
  }
  const bytes = cache.get(secret);
  return bytes === undefined ? remember(cache, secret, format.keyBytes(secret) ?? null) : bytes;
}

/**
 * Whether `received` is `expected`, in a time that depends on `received` alone: every byte of it is compared (with the
 * expected byte at that place, wrapping round), so the time tells neither where they differ nor how long the secret is.
 */
export function sameToken(received: Uint8Array, expected: Uint8Array): boolean {
  let difference = received.length ^ expected.length;
  for (let i = 0; i < received.length; i++) {
    difference |= (received[i] as number) ^ (expected[i % expected.length] as number);
  }
  return difference === 0;
}

/**
 * A token that matched: the body's hex SHA-256 is made only when it is read (the Receiver's dedup key where the sender
 * gives no id), so that a standalone verify, which returns no signature, never hashes the body.
 */
class TokenMatch implements SignatureMatch {
  #signature: string | undefined;

  constructor(
    readonly secretIndex: number,
    private readonly hash: () => string,
  ) {}

  get signature(): string {
    this.#signature ??= this.hash();
    return this.#signature;
  }
}

/**
 * Matchers for a shared token the sender sends as it is (GitLab's `X-Gitlab-Token`, Postmark's Basic credentials):
 * the token the scheme read (`content.signatures[0]`) against each secret, compared in constant time so that neither
 * a token's bytes nor its length show in the time taken: with node:crypto, their UTF-8 bytes, every byte of the token
 * compared whatever the secret's length; with Web Crypto, their SHA-256 digests. A token proves less than a
 * signature: whoever sees one request can send any body with it.
 *
 * What matched is reported as the hex SHA-256 of the body (the dedup key where the sender gives no id), never the
 * token, which would otherwise become a dedup key, a log field and the key every later delivery shares.
 */
export const TOKEN_MATCHERS: Matchers = {
  node(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): SignatureMatch | undefined {
    const format = content.format ?? UTF8_SECRET;
    const token = encoder.encode(content.signatures[0] ?? "");
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const bytes = secretBytes(format, secrets[secretIndex] as string);
      if (bytes !== null && sameToken(token, bytes)) {
        return new TokenMatch(secretIndex, () =>
          crypto.createHash("sha256").update(content.prefix).update(content.payload).digest("hex"),
        );
      }
    }
    return undefined;
  },
  async web(content: SignedContent, secrets: readonly string[]): Promise<SignatureMatch | undefined> {
    const format = content.format ?? UTF8_SECRET;
    const digest = async (bytes: Uint8Array) =>
      new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
    const token = await digest(encoder.encode(content.signatures[0] ?? ""));
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const bytes = format.keyBytes(secrets[secretIndex] as string);
      if (bytes === undefined) continue;
      if (constantTimeEqual(token, await digest(bytes))) {
        return { secretIndex, signature: toHex(await digest(signedBytes(content.prefix, content.payload))) };
      }
    }
    return undefined;
  },
};
