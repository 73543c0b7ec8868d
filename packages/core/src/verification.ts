import type { SignatureMatch, SignedContent } from "./crypto/signed-content";
import { WebhookVerificationError } from "./errors";
import { parseHeaderDetailed, type SignatureHeaderInput } from "./header";
import { requirePayloadBytes } from "./payload";
import { normalizeSecrets, type Secret } from "./secrets";
import { assertWithinTolerance, resolveTolerance, type VerifyOptions } from "./tolerance";

export interface VerifyResult {
  /** The signed `t`, in Unix seconds. */
  timestamp: number;
  /** Which configured secret matched: watch it fall to 0 before dropping an old secret after rotation. */
  secretIndex: number;
}

/** What the Receiver also needs: the `v1` that matched is a dedup key no attacker can vary. */
export type VerifiedDelivery = VerifyResult & SignatureMatch;

export type SafeVerifyResult = ({ ok: true } & VerifyResult) | { ok: false; error: WebhookVerificationError };

/** Everything checked before the HMAC, shared by the sync and async paths. */
export interface PreparedVerification {
  content: SignedContent;
  secrets: readonly string[];
  timestamp: number;
  toleranceSeconds: number;
}

export function prepareVerification(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options: VerifyOptions | undefined,
): PreparedVerification {
  const secrets = normalizeSecrets(secret);
  const toleranceSeconds = resolveTolerance(options);
  return prepareChecked(requirePayloadBytes(payload), header, secrets, toleranceSeconds);
}

/** For callers that checked the secrets and the tolerance once, at setup (the Receiver), not per delivery. */
export function prepareChecked(
  payload: Uint8Array,
  header: SignatureHeaderInput,
  secrets: readonly string[],
  toleranceSeconds: number,
): PreparedVerification {
  const parsed = parseHeaderDetailed(header);
  return {
    content: { prefix: `${parsed.timestampText}.`, payload, signatures: parsed.signatures },
    secrets,
    timestamp: parsed.timestamp,
    toleranceSeconds,
  };
}

/** The time window is checked only after a signature held, so unsigned requests learn nothing about our clock. */
export function concludeVerification(
  prepared: PreparedVerification,
  match: SignatureMatch | undefined,
  options: VerifyOptions | undefined,
): VerifiedDelivery {
  if (match === undefined) {
    const { signatures } = prepared.content;
    throw new WebhookVerificationError(
      "signature_mismatch",
      `No v1 signature matches (${signatures.length} checked, ${prepared.secrets.length} secret(s)): wrong secret, or the body changed.`,
    );
  }
  assertWithinTolerance(prepared.timestamp, prepared.toleranceSeconds, options);
  return { timestamp: prepared.timestamp, secretIndex: match.secretIndex, signature: match.signature };
}

export function publicResult({ timestamp, secretIndex }: VerifyResult): VerifyResult {
  return { timestamp, secretIndex };
}

/** Turns a thrown `WebhookVerificationError` into the `safe*` result; anything else is a bug and propagates. */
export function toFailure(error: unknown): SafeVerifyResult {
  if (error instanceof WebhookVerificationError) return { ok: false, error };
  throw error;
}
