import { constantTimeEqual } from "./constant-time";
import type { NodeCrypto } from "./node-crypto";
import { UTF8_SECRET } from "./secret-kind";
import type { Matchers, SignatureMatch, SignedContent } from "./signed-content";
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
export const TOKEN_MATCHERS: Matchers = {
  node(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): SignatureMatch | undefined {
    const format = content.format ?? UTF8_SECRET;
    const token = crypto
      .createHash("sha256")
      .update(content.signatures[0] ?? "")
      .digest();
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const bytes = format.keyBytes(secrets[secretIndex] as string);
      if (bytes === undefined) continue;
      if (crypto.timingSafeEqual(token, crypto.createHash("sha256").update(bytes).digest())) {
        const body = crypto.createHash("sha256").update(content.prefix).update(content.payload).digest("hex");
        return { secretIndex, signature: body };
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
