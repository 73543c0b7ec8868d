import { findNodeCrypto, matchWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import type { Secret } from "./secrets";
import type { SignatureHeaderInput } from "./signature-header";
import {
  parseVerifyArguments,
  requireMatchInWindow,
  type SafeVerifyResult,
  type SignedDelivery,
  toFailure,
  toVerifyResult,
  type VerifiedDelivery,
  type VerifyResult,
} from "./signed-delivery";
import type { VerifyOptions } from "./tolerance";

/** The HMAC step of `verify` and `constructEvent`, with node:crypto only. */
export function matchSignatureSync(
  delivery: SignedDelivery,
  options: VerifyOptions | undefined,
  caller: "verify" | "constructEvent",
): VerifiedDelivery {
  // The message is built only where node:crypto is missing, not on every call.
  const crypto = findNodeCrypto() ?? requireNodeCrypto(caller, `${caller}Async`);
  return requireMatchInWindow(delivery, matchWithNodeCrypto(crypto, delivery.content, delivery.secrets), options);
}

/**
 * Verifies a delivery synchronously with node:crypto (Node, Bun, Deno).
 * Throws `WebhookVerificationError` for a bad delivery and `TypeError` for a bad secret or option.
 */
export function verify(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): VerifyResult {
  return toVerifyResult(matchSignatureSync(parseVerifyArguments(payload, header, secret, options), options, "verify"));
}

/** `verify` that returns `{ ok: false, error }` instead of throwing a `WebhookVerificationError`. */
export function safeVerify(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): SafeVerifyResult {
  try {
    return { ok: true, ...verify(payload, header, secret, options) };
  } catch (error) {
    return toFailure(error);
  }
}
