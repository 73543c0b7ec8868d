import type { SignatureMatch, SignedContent } from "../crypto/signed-content";
import { WebhookVerificationError } from "../errors";
import { requirePayloadBytes } from "./payload";
import { normalizeSecrets, type Secret } from "./secrets";
import { parseHeaderDetailed, type SignatureHeaderInput } from "./signature-header";
import { assertWithinTolerance, currentSeconds, resolveTolerance, type VerifyOptions } from "./tolerance";

/**
 * What a delivery that verified tells: when it was signed, and which secret signed it.
 *
 * @example
 * ```ts
 * import { verify, type VerifyResult } from "@tidings/core";
 *
 * export function verified(body: Uint8Array, header: string | null): VerifyResult {
 *   const result = verify(body, header, [process.env.WEBHOOK_SECRET!, process.env.OLD_WEBHOOK_SECRET!]);
 *   console.log("signed at", new Date(result.timestamp * 1000), "by secret", result.secretIndex);
 *   return result;
 * }
 * ```
 */
export interface VerifyResult {
  /** The signed `t`, in Unix seconds; for a scheme that signs no time (GitHub, Shopify), when it was verified. */
  timestamp: number;
  /** Which configured secret matched: watch it fall to 0 before dropping an old secret after rotation. */
  secretIndex: number;
}

/**
 * What the Receiver also needs: the match, whose signature (the `v1` that matched) is a dedup key no attacker can vary;
 * read only where the event has no id of its own, since a token's is the body's hash, made when read.
 */
export type VerifiedDelivery = VerifyResult & { match: SignatureMatch };

/**
 * What `safeVerify` and `safeVerifyAsync` return: the `VerifyResult` with `ok: true`, or the error with `ok: false`.
 *
 * @example
 * ```ts
 * import { type SafeVerifyResult, safeVerify } from "@tidings/core";
 *
 * export function check(body: Uint8Array, header: string | null): SafeVerifyResult {
 *   const result = safeVerify(body, header, process.env.WEBHOOK_SECRET!);
 *   if (!result.ok) console.warn(`refused: ${result.error.code}, answer ${result.error.status}`);
 *   return result;
 * }
 * ```
 */
export type SafeVerifyResult = ({ ok: true } & VerifyResult) | { ok: false; error: WebhookVerificationError };

/**
 * A delivery with its header read and its arguments checked: what the HMAC step needs, and what a scheme's `read`
 * returns. Sync and async alike.
 *
 * @example
 * ```ts
 * import { requiredHeader, type SignedDelivery } from "@tidings/core/schemes";
 *
 * // A scheme's `read` for a sender that signs the body alone, in `X-Acme-Signature`, with no timestamp.
 * export function read(
 *   payload: Uint8Array,
 *   headers: Headers,
 *   secrets: readonly string[],
 *   toleranceSeconds: number,
 * ): SignedDelivery {
 *   const signature = requiredHeader(headers, "x-acme-signature", "X-Acme-Signature");
 *   return { content: { prefix: "", payload, signatures: [signature] }, secrets, timestamp: undefined, toleranceSeconds };
 * }
 * ```
 */
export interface SignedDelivery {
  content: SignedContent;
  secrets: readonly string[];
  /** The signed time, Unix seconds; undefined for a scheme that signs none (no time window then). */
  timestamp: number | undefined;
  toleranceSeconds: number;
}

/** `verify`'s first step: checks the secret and the tolerance, then reads the header (`parseSignedDelivery`). */
export function parseVerifyArguments(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options: VerifyOptions | undefined,
): SignedDelivery {
  const secrets = normalizeSecrets(secret);
  const toleranceSeconds = resolveTolerance(options);
  return parseSignedDelivery(requirePayloadBytes(payload), header, secrets, toleranceSeconds);
}

/**
 * Reads the `Service-Signature` header into the signed content (`t.` + body) and the `v1` values to match. For callers
 * that checked the secrets and the tolerance once, at setup (the Receiver), not per delivery.
 */
export function parseSignedDelivery(
  payload: Uint8Array,
  header: SignatureHeaderInput,
  secrets: readonly string[],
  toleranceSeconds: number,
): SignedDelivery {
  const parsed = parseHeaderDetailed(header);
  return {
    content: { prefix: `${parsed.timestampText}.`, payload, signatures: parsed.signatures },
    secrets,
    timestamp: parsed.timestamp,
    toleranceSeconds,
  };
}

/**
 * The last step, after the HMAC: no match is `signature_mismatch`; a match outside the time window is refused too.
 * The window is checked only after a signature held, so unsigned requests learn nothing about our clock.
 */
export function requireMatchInWindow(
  delivery: SignedDelivery,
  match: SignatureMatch | undefined,
  options: VerifyOptions | undefined,
): VerifiedDelivery {
  if (match === undefined) {
    throw new WebhookVerificationError(
      "signature_mismatch",
      `No ${delivery.content.label ?? "v1"} signature matches: wrong secret, or the body changed on the way.`,
    );
  }
  const { timestamp } = delivery;
  if (timestamp !== undefined) assertWithinTolerance(timestamp, delivery.toleranceSeconds, options);
  return {
    timestamp: timestamp ?? currentSeconds(options),
    secretIndex: match.secretIndex,
    match,
  };
}

export function toVerifyResult({ timestamp, secretIndex }: VerifyResult): VerifyResult {
  return { timestamp, secretIndex };
}

/** Turns a thrown `WebhookVerificationError` into the `safe*` result; anything else is a bug and propagates. */
export function toFailure(error: unknown): SafeVerifyResult {
  if (error instanceof WebhookVerificationError) return { ok: false, error };
  throw error;
}
