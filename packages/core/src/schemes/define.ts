import { findNodeCrypto, matchWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import { hmacSecretKind, UTF8_SECRET } from "../crypto/secret-kind";
import type { SignatureMatch } from "../crypto/signed-content";
import type { HeaderSource } from "../http/headers";
import { requirePayloadBytes } from "../verification/payload";
import { normalizeSecrets, type Secret } from "../verification/secrets";
import {
  requireMatchInWindow,
  type SignedDelivery,
  toVerifyResult,
  type VerifyResult,
} from "../verification/signed-delivery";
import { assertWithinTolerance, currentSeconds, resolveTolerance, type VerifyOptions } from "../verification/tolerance";
import { matchSignature } from "../verification/verify-async";
import type { Scheme } from "./scheme";

/**
 * A scheme's parts; `defineScheme` adds the standalone `verify` and `verifyAsync`, which share the Receiver's chain.
 * Without `secretKind`, the scheme takes any secret but an ed25519 key, as UTF-8 HMAC key bytes.
 *
 * @example
 * ```ts
 * import { defineScheme, requiredHeader, type SchemeParts } from "@tidings/core/schemes";
 *
 * // Two senders that sign alike and differ only in their header: one set of parts, two schemes.
 * const partsFor = (header: string): SchemeParts => ({
 *   name: header.slice(2),
 *   signatureHeader: header,
 *   read: (payload, headers, secrets, toleranceSeconds) => ({
 *     content: { prefix: "", payload, signatures: [requiredHeader(headers, header, header)] },
 *     secrets,
 *     timestamp: undefined,
 *     toleranceSeconds,
 *   }),
 *   typeOf: (event) => (typeof event.type === "string" ? event.type : undefined),
 *   idOf: (event) => (typeof event.id === "string" ? event.id : undefined),
 *   sign: () => ({}),
 * });
 *
 * export const [first, second] = ["x-first-signature", "x-second-signature"].map((header) => defineScheme(partsFor(header)));
 * ```
 */
export type SchemeParts = Omit<Scheme, "verify" | "verifyAsync" | "secretKind"> & {
  secretKind?: Scheme["secretKind"];
};

function read(scheme: Scheme, payload: unknown, headers: HeaderSource, secret: Secret, options?: VerifyOptions) {
  // One secret and the bytes a server hands over, as most calls pass them, need none of the general checks.
  const secrets = typeof secret === "string" && secret !== "" ? [secret] : normalizeSecrets(secret);
  const toleranceSeconds =
    options?.toleranceSeconds === undefined && scheme.toleranceSeconds !== undefined
      ? scheme.toleranceSeconds
      : resolveTolerance(options);
  const bytes = payload instanceof Uint8Array ? payload : requirePayloadBytes(payload);
  return scheme.read(bytes, headers, secrets, toleranceSeconds, options?.request);
}

const SUFFIX_NEEDS_MATCHERS =
  "A signed content with a suffix names its matchers: hmacMatchers honour it, the default does not";

/**
 * The standalone verify's result, checked as `requireMatchInWindow` checks it, built without the match the Receiver
 * keeps (a token's signature is the body's hash, made only when read): one object, not two.
 */
function resultInWindow(
  delivery: SignedDelivery,
  match: SignatureMatch | undefined,
  options: VerifyOptions | undefined,
): VerifyResult {
  if (match === undefined) return requireMatchInWindow(delivery, match, options);
  const { timestamp } = delivery;
  if (timestamp !== undefined) assertWithinTolerance(timestamp, delivery.toleranceSeconds, options);
  return { timestamp: timestamp ?? currentSeconds(options), secretIndex: match.secretIndex };
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

/**
 * Makes a scheme from its parts, as every scheme of the catalogue is made: the Receiver, every adapter, the stores and
 * the queues then work with it as with any other, and it is a standalone `verify`/`verifyAsync` too. See the core
 * README, "Writing a scheme".
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { defineScheme, requiredHeader, signingBytes } from "@tidings/core/schemes";
 * import { createHmac } from "node:crypto";
 *
 * // A sender that signs the body alone: `X-Acme-Signature: <hex HMAC-SHA256 of the body>`, no timestamp.
 * export const acme = defineScheme({
 *   name: "acme",
 *   signatureHeader: "x-acme-signature",
 *   read: (payload, headers, secrets, toleranceSeconds) => ({
 *     content: { prefix: "", payload, signatures: [requiredHeader(headers, "x-acme-signature", "X-Acme-Signature")] },
 *     secrets,
 *     timestamp: undefined,
 *     toleranceSeconds,
 *   }),
 *   typeOf: (event) => (typeof event.type === "string" ? event.type : undefined),
 *   idOf: (event) => (typeof event.id === "string" ? event.id : undefined),
 *   sign: (payload, secret) => ({
 *     "x-acme-signature": createHmac("sha256", secret).update(signingBytes(payload, secret)).digest("hex"),
 *   }),
 * });
 *
 * export const receiver = createReceiver({ scheme: acme, secret: process.env.ACME_WEBHOOK_SECRET! });
 * ```
 */
export function defineScheme(parts: SchemeParts): Scheme {
  const scheme: Scheme = {
    ...parts,
    // A scheme that names no format of its own reads secrets as UTF-8, where an ed25519 key is no HMAC key.
    read(payload, headers, secrets, toleranceSeconds, request) {
      const signed = parts.read(payload, headers, secrets, toleranceSeconds, request);
      signed.content.format ??= UTF8_SECRET;
      if (signed.content.suffix && !signed.content.matchers) throw new TypeError(SUFFIX_NEEDS_MATCHERS);
      return signed;
    },
    secretKind: parts.secretKind ?? hmacSecretKind,
    verify(payload, headers, secret, options) {
      try {
        const delivery = read(scheme, payload, headers, secret, options);
        // The message is built only where node:crypto is missing, not on every call.
        const crypto = findNodeCrypto() ?? requireNodeCrypto("verify", "verifyAsync");
        return resultInWindow(delivery, matchWithNodeCrypto(crypto, delivery.content, delivery.secrets), options);
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
