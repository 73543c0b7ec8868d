import type { SignatureMatch, SignedContent } from "./crypto/signed-content";
import { WebhookVerificationError } from "./errors";
import { parseHeaderDetailed } from "./header";
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

/**
 * `normalizeSecrets` without its iterator for valid input (it runs on every delivery): a non-empty string as a
 * one-element list, an array of non-empty strings as is. Anything else gets `normalizeSecrets`'s errors.
 */
function secretList(secret: Secret): readonly string[] {
  if (typeof secret === "string") {
    if (secret !== "") return [secret];
  } else if (Array.isArray(secret) && secret.length > 0) {
    let valid = true;
    for (let i = 0; valid && i < secret.length; i++) {
      const value: unknown = secret[i];
      valid = typeof value === "string" && value !== "";
    }
    if (valid) return secret;
  }
  return normalizeSecrets(secret);
}

export function prepareVerification(
  payload: unknown,
  header: string | null | undefined,
  secret: Secret,
  options: VerifyOptions | undefined,
): PreparedVerification {
  const secrets = secretList(secret);
  const toleranceSeconds = resolveTolerance(options);
  const bytes = requirePayloadBytes(payload);
  const parsed = parseHeaderDetailed(header);
  return {
    content: { prefix: `${parsed.timestampText}.`, payload: bytes, signatures: parsed.signatures },
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
      `No v1 signature in the Service-Signature header matches the body (${signatures.length} signature(s) checked against ${prepared.secrets.length} secret(s)). Verify over the raw request body exactly as received, with this webhook endpoint's secret.`,
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
