import { findNodeCrypto, matchHmacWithNodeCrypto, type NodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import type { SignatureMatch, SignedContent } from "../crypto/signed-content";
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

/**
 * The HMAC step of `verify` and `constructEvent`, with node:crypto only; a scheme's standalone `verify` passes the
 * matcher that runs its own matchers (Standard Webhooks' ed25519), which the service's HMAC needs no bytes of.
 */
export function matchSignatureSync(
  delivery: SignedDelivery,
  options: VerifyOptions | undefined,
  caller: "verify" | "constructEvent",
  match: (
    crypto: NodeCrypto,
    content: SignedContent,
    secrets: readonly string[],
  ) => SignatureMatch | undefined = matchHmacWithNodeCrypto,
): VerifiedDelivery {
  // The message is built only where node:crypto is missing, not on every call.
  const crypto = findNodeCrypto() ?? requireNodeCrypto(caller, `${caller}Async`);
  return requireMatchInWindow(delivery, match(crypto, delivery.content, delivery.secrets), options);
}

/**
 * Verifies a delivery synchronously with node:crypto (Node, Bun, Deno).
 * Throws `WebhookVerificationError` for a bad delivery and `TypeError` for a bad secret or option.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, verify, WebhookVerificationError } from "@tidings/core";
 * import express from "express";
 *
 * const app = express();
 * app.post("/webhooks", express.raw({ type: () => true }), (req, res) => {
 *   try {
 *     const { timestamp } = verify(req.body, req.headers[SIGNATURE_HEADER], process.env.WEBHOOK_SECRET!);
 *     console.log("signed at", new Date(timestamp * 1000));
 *     res.sendStatus(200);
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     res.status(error.status).json({ error: { code: error.code, message: error.message } });
 *   }
 * });
 * app.listen(3000);
 * ```
 */
export function verify(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): VerifyResult {
  return toVerifyResult(matchSignatureSync(parseVerifyArguments(payload, header, secret, options), options, "verify"));
}

/**
 * `verify` that returns `{ ok: false, error }` instead of throwing a `WebhookVerificationError`.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, safeVerify } from "@tidings/core";
 *
 * // The HTTP status to answer a delivery with.
 * export function statusOf(body: Buffer, headers: Record<string, string | string[] | undefined>): number {
 *   const result = safeVerify(body, headers[SIGNATURE_HEADER], process.env.WEBHOOK_SECRET!);
 *   if (!result.ok) return result.error.status; // result.error.code says which rule failed
 *   console.log("signed at", result.timestamp, "by secret", result.secretIndex);
 *   return 200;
 * }
 * ```
 */
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
