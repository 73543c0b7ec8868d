import { findNodeCrypto, matchWithNodeCrypto } from "../crypto/node-crypto";
import type { SignatureMatcher } from "../crypto/signed-content";
import { matchWithWebCrypto } from "../crypto/web-crypto";
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

let nodeMatcher: SignatureMatcher | undefined;

/** node:crypto where the runtime has it (Web Crypto costs tens of µs per call on Node); Web Crypto elsewhere. */
export function pickMatcher(): SignatureMatcher {
  const crypto = findNodeCrypto();
  if (crypto === undefined) return matchWithWebCrypto;
  nodeMatcher ??= (content, secrets) => matchWithNodeCrypto(crypto, content, secrets);
  return nodeMatcher;
}

/**
 * The HMAC step: compares every `v1` with every secret's HMAC (node:crypto or Web Crypto), then `requireMatchInWindow`.
 * Synchronous where the matcher is (node:crypto), so the Receiver spends no microtask turn on it.
 */
export function matchSignature(
  delivery: SignedDelivery,
  options: VerifyOptions | undefined,
  match: SignatureMatcher = pickMatcher(),
): VerifiedDelivery | Promise<VerifiedDelivery> {
  const matched = match(delivery.content, delivery.secrets);
  return matched instanceof Promise
    ? matched.then((found) => requireMatchInWindow(delivery, found, options))
    : requireMatchInWindow(delivery, matched, options);
}

/**
 * Verifies a delivery in any runtime: Node, Bun, Deno, edge functions, Cloudflare Workers. Same rules as `verify`.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, verifyAsync, WebhookVerificationError } from "@tidings/core";
 *
 * // A Next.js route handler (app/webhooks/route.ts), on the Edge or the Node runtime alike.
 * export async function POST(request: Request): Promise<Response> {
 *   const body = new Uint8Array(await request.arrayBuffer());
 *   try {
 *     await verifyAsync(body, request.headers.get(SIGNATURE_HEADER), process.env.WEBHOOK_SECRET!);
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     return Response.json({ error: error.code }, { status: error.status });
 *   }
 *   console.log("verified", JSON.parse(new TextDecoder().decode(body)).type);
 *   return Response.json({ received: true });
 * }
 * ```
 */
export async function verifyAsync(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<VerifyResult> {
  return toVerifyResult(await matchSignature(parseVerifyArguments(payload, header, secret, options), options));
}

/**
 * `verifyAsync` that resolves to `{ ok: false, error }` instead of rejecting with a `WebhookVerificationError`.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, safeVerifyAsync } from "@tidings/core";
 *
 * // A Deno or Bun server, or a Worker's fetch handler.
 * export async function handle(request: Request): Promise<Response> {
 *   const body = new Uint8Array(await request.arrayBuffer());
 *   const result = await safeVerifyAsync(body, request.headers.get(SIGNATURE_HEADER), process.env.WEBHOOK_SECRET!);
 *   if (!result.ok) return Response.json({ error: result.error.code }, { status: result.error.status });
 *   return Response.json({ received: true });
 * }
 * ```
 */
export function safeVerifyAsync(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<SafeVerifyResult> {
  return verifyAsync(payload, header, secret, options).then((result) => ({ ok: true, ...result }), toFailure);
}
