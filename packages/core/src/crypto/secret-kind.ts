import { encoder } from "../ground/utf8";
import type { SecretFormat } from "./signed-content";

/**
 * What a secret verifies: an HMAC key, an ed25519 public key (Standard Webhooks' `whpk_…`, Discord's and Telnyx's
 * keys), an ECDSA P-256 public key (SendGrid's), or a token the sender sends as it is (GitLab's `X-Gitlab-Token`,
 * Postmark's Basic credentials), which proves less than a signature.
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
export type SecretKind = "hmac" | "ed25519" | "ecdsa-p256" | "token";

// `whpk_`/`whsk_` (Standard Webhooks), a PEM key, or base64 DER SubjectPublicKeyInfo of an ECDSA P-256 (SendGrid) or
// ed25519 key: their fixed openings. Discord's hex and Telnyx's raw base64 ed25519 keys look like any secret.
const ASYMMETRIC =
  /^(wh[ps]k_|-----BEGIN [A-Z ]*(PUBLIC|PRIVATE) KEY-----|MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE|MCowBQYDK2VwAyEA)/;

/**
 * A key of a key pair, where its writing tells it (`whpk_`/`whsk_`, PEM, base64 DER of a P-256 or ed25519 public
 * key): never an HMAC key. A public key is public by definition, so an HMAC made with it proves nothing.
 */
export const isAsymmetricKey = (secret: string): boolean => ASYMMETRIC.test(secret);

/** The secret's UTF-8 bytes as the HMAC key (the service, GitHub, Shopify, Slack): any secret but an ed25519 key. */
export const UTF8_SECRET: SecretFormat = {
  keyBytes: (secret) => (isAsymmetricKey(secret) ? undefined : encoder.encode(secret)),
  nodeKeys: /* @__PURE__ */ new Map(),
  webKeys: /* @__PURE__ */ new Map(),
};

/** The kind of a secret that a scheme takes as UTF-8 HMAC key bytes: throws for a public or private key. */
export function hmacSecretKind(secret: string): SecretKind {
  if (isAsymmetricKey(secret)) {
    throw new TypeError("A public or private key (ed25519, ECDSA) is no HMAC secret");
  }
  return "hmac";
}
