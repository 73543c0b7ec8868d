import { matchWithNodeCrypto } from "../crypto/node-crypto";
import { hmacSecretKind, UTF8_SECRET } from "../crypto/secret-kind";
import type { HeaderSource } from "../http/headers";
import { requirePayloadBytes } from "../verification/payload";
import { normalizeSecrets, type Secret } from "../verification/secrets";
import { type SignedDelivery, toVerifyResult } from "../verification/signed-delivery";
import { resolveTolerance, type VerifyOptions } from "../verification/tolerance";
import { matchSignatureSync } from "../verification/verify";
import { matchSignature } from "../verification/verify-async";
import type { Scheme } from "./scheme";

/**
 * A scheme's parts; `defineScheme` adds the standalone `verify` and `verifyAsync`, which share the Receiver's chain.
 * Without `secretKind`, the scheme takes any secret but an ed25519 key, as UTF-8 HMAC key bytes.
 */
export type SchemeParts = Omit<Scheme, "verify" | "verifyAsync" | "secretKind"> & {
  secretKind?: Scheme["secretKind"];
};

function read(scheme: Scheme, payload: unknown, headers: HeaderSource, secret: Secret, options?: VerifyOptions) {
  const secrets = normalizeSecrets(secret);
  const toleranceSeconds = resolveTolerance(options);
  return scheme.read(requirePayloadBytes(payload), headers, secrets, toleranceSeconds, options?.request);
}

/**
 * A delivery no secret verified: a secret the scheme cannot verify with was skipped, which is the caller's mistake
 * rather than the sender's, so it is the TypeError that says why. Checked only then: a delivery that verified costs
 * nothing more.
 */
function refuseUnusableSecret(scheme: Scheme, secret: Secret, error: unknown): never {
  if ((error as { code?: unknown } | null)?.code === "signature_mismatch") {
    for (const one of normalizeSecrets(secret)) scheme.secretKind(one);
  }
  throw error;
}

export function defineScheme(parts: SchemeParts): Scheme {
  const scheme: Scheme = {
    ...parts,
    // A scheme that names no format of its own reads secrets as UTF-8, where an ed25519 key is no HMAC key.
    read(payload, headers, secrets, toleranceSeconds, request) {
      const signed = parts.read(payload, headers, secrets, toleranceSeconds, request);
      signed.content.format ??= UTF8_SECRET;
      return signed;
    },
    secretKind: parts.secretKind ?? hmacSecretKind,
    verify(payload, headers, secret, options) {
      try {
        const delivery = read(scheme, payload, headers, secret, options);
        return toVerifyResult(matchSignatureSync(delivery, options, "verify", matchWithNodeCrypto));
      } catch (error) {
        return refuseUnusableSecret(scheme, secret, error);
      }
    },
    async verifyAsync(payload, headers, secret, options) {
      const delivery: SignedDelivery = read(scheme, payload, headers, secret, options);
      try {
        return toVerifyResult(await matchSignature(delivery, options));
      } catch (error) {
        return refuseUnusableSecret(scheme, secret, error);
      }
    },
  };
  return scheme;
}
