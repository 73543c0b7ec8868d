import { constantTimeEqual } from "./constant-time";
import { remember } from "./key-cache";
import type { NodeCrypto } from "./node-crypto";
import { UTF8_SECRET } from "./secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "./signed-content";
import { signedBytes } from "./web-crypto";

const encoder = /* @__PURE__ */ new TextEncoder();
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * Matchers for a shared token the sender sends as it is (GitLab's `X-Gitlab-Token`, Postmark's Basic credentials):
 * the token the scheme read (`content.signatures[0]`) against each secret, as their SHA-256 digests compared in
 * constant time, so neither a token's bytes nor its length show in the time taken. A token proves less than a
 * signature: whoever sees one request can send any body with it.
 *
 * What matched is reported as the hex SHA-256 of the body (the dedup key where the sender gives no id), never the
 * token, which would otherwise become a dedup key, a log field and the key every later delivery shares.
 */
// Each secret's SHA-256, made once per format (as HMAC keys are); `null`: the secret is no token as the format reads it.
const digests = /* @__PURE__ */ new Map<SecretFormat, Map<string, Buffer | null>>();

function secretDigest(crypto: NodeCrypto, format: SecretFormat, secret: string): Buffer | null {
  let cache = digests.get(format);
  if (cache === undefined) {
    cache = new Map();
    digests.set(format, cache);
  }
  let digest = cache.get(secret);
  if (digest === undefined) {
    const bytes = format.keyBytes(secret);
    digest = remember(cache, secret, bytes ? crypto.createHash("sha256").update(bytes).digest() : null);
  }
  return digest;
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

export const TOKEN_MATCHERS: Matchers = {
  node(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): SignatureMatch | undefined {
    const format = content.format ?? UTF8_SECRET;
    const token = crypto
      .createHash("sha256")
      .update(content.signatures[0] ?? "")
      .digest();
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const digest = secretDigest(crypto, format, secrets[secretIndex] as string);
      if (digest !== null && crypto.timingSafeEqual(token, digest)) {
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
