import { encoder } from "../ground/utf8";
import type { SecretFormat } from "./signed-content";

/**
 * What a secret verifies: an HMAC key, an ed25519 public key (`whpk_…`), or a token the sender sends as it is
 * (GitLab's `X-Gitlab-Token`, Postmark's Basic credentials), which proves less than a signature.
 *
 * @example
 * ```ts
 * import { type SecretKind, standardWebhooks } from "@tidings/core/schemes";
 *
 * // Which secrets of an endpoint's record verify HMAC signatures, and which ed25519 ones; a malformed one throws.
 * export function kindsOf(secrets: readonly string[]): SecretKind[] {
 *   const scheme = standardWebhooks();
 *   return secrets.map((secret) => scheme.secretKind(secret));
 * }
 * ```
 */
export type SecretKind = "hmac" | "ed25519" | "token";

/**
 * An ed25519 key (`whpk_` public, `whsk_` secret): never an HMAC key. A public key is public by definition, so an
 * HMAC made with it proves nothing.
 */
export const isAsymmetricKey = (secret: string): boolean => /^wh[ps]k_/.test(secret);

/** The secret's UTF-8 bytes as the HMAC key (the service, GitHub, Shopify, Slack): any secret but an ed25519 key. */
export const UTF8_SECRET: SecretFormat = {
  keyBytes: (secret) => (isAsymmetricKey(secret) ? undefined : encoder.encode(secret)),
  nodeKeys: /* @__PURE__ */ new Map(),
  webKeys: /* @__PURE__ */ new Map(),
};

/** The kind of a secret that a scheme takes as UTF-8 HMAC key bytes: throws for an ed25519 key. */
export function hmacSecretKind(secret: string): SecretKind {
  if (isAsymmetricKey(secret)) {
    throw new TypeError("An ed25519 key is no HMAC secret");
  }
  return "hmac";
}
