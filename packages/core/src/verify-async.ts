import { findNodeCrypto, matchWithNodeCrypto } from "./crypto/node-crypto";
import type { SignatureMatcher } from "./crypto/signed-content";
import { matchWithWebCrypto } from "./crypto/web-crypto";
import type { SignatureHeaderInput } from "./header";
import type { Secret } from "./secrets";
import type { VerifyOptions } from "./tolerance";
import {
  concludeVerification,
  type PreparedVerification,
  prepareVerification,
  publicResult,
  type SafeVerifyResult,
  toFailure,
  type VerifiedDelivery,
  type VerifyResult,
} from "./verification";

let nodeMatcher: SignatureMatcher | undefined;

/** node:crypto where the runtime has it (Web Crypto costs tens of µs per call on Node); Web Crypto elsewhere. */
export function pickMatcher(): SignatureMatcher {
  const crypto = findNodeCrypto();
  if (crypto === undefined) return matchWithWebCrypto;
  nodeMatcher ??= (content, secrets) => matchWithNodeCrypto(crypto, content, secrets);
  return nodeMatcher;
}

/** Synchronous where the matcher is (node:crypto), so the Receiver spends no microtask turn on it. */
export function checkPrepared(
  prepared: PreparedVerification,
  options: VerifyOptions | undefined,
  match: SignatureMatcher = pickMatcher(),
): VerifiedDelivery | Promise<VerifiedDelivery> {
  const matched = match(prepared.content, prepared.secrets);
  return matched instanceof Promise
    ? matched.then((found) => concludeVerification(prepared, found, options))
    : concludeVerification(prepared, matched, options);
}

/** Verifies a delivery in any runtime: Node, Bun, Deno, edge functions, Cloudflare Workers. Same rules as `verify`. */
export async function verifyAsync(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<VerifyResult> {
  return publicResult(await checkPrepared(prepareVerification(payload, header, secret, options), options));
}

/** `verifyAsync` that resolves to `{ ok: false, error }` instead of rejecting with a `WebhookVerificationError`. */
export function safeVerifyAsync(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<SafeVerifyResult> {
  return verifyAsync(payload, header, secret, options).then((result) => ({ ok: true, ...result }), toFailure);
}
