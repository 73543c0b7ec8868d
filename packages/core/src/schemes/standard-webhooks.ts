import { base64ToBytes } from "../crypto/base64";
import { matchHmacWithNodeCrypto } from "../crypto/node-crypto";
import { isAsymmetricKey, type SecretKind } from "../crypto/secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "../crypto/signed-content";
import { matchHmacWithWebCrypto, signedBytes } from "../crypto/web-crypto";
import { type HeaderSource, headerValue } from "../http/headers";
import type { EventMap } from "../receiver/events";
import { isBase64Ed25519, isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { Ed25519Checks, ed25519MatchNode, ed25519MatchWeb, ed25519Sign, rawKey } from "./ed25519";
import { malformed, noSignature, requiredValue, timestampOf } from "./headers";
import { payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const MAX_SIGNATURES = 32;

/**
 * `whsec_<base64>`: the HMAC key is the base64-decoded part after the prefix (the prefix is optional, as in the
 * reference library). A secret that is not base64, or is an ed25519 key, is no HMAC key: never a silent wrong key.
 */
export const WHSEC: SecretFormat = {
  keyBytes(secret) {
    if (isAsymmetricKey(secret)) return undefined;
    try {
      const bytes = base64ToBytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
      return bytes.length > 0 ? bytes : undefined;
    } catch {
      return undefined;
    }
  },
  nodeKeys: new Map(),
  webKeys: new Map(),
};

/** A `whpk_` public key verifies `v1a` (ed25519); a `whsec_<base64>` secret `v1` (HMAC); nothing else verifies. */
function standardSecretKind(secret: string): SecretKind {
  if (secret.startsWith("whpk_")) {
    rawKey(secret, "whpk_", [32]);
    return "ed25519";
  }
  if (secret.startsWith("whsk_")) {
    throw new TypeError(
      "A whsk_ key signs: give the receiver its public key, ed25519PublicKey(secretKey) from @tidings/core/schemes.",
    );
  }
  if (WHSEC.keyBytes(secret) === undefined) {
    throw new TypeError("A Standard Webhooks secret must be whsec_<base64>, or whpk_<base64> for ed25519");
  }
  return "hmac";
}

/** What a Standard Webhooks header holds besides the HMAC `v1` signatures: the ed25519 `v1a` ones. */
interface StandardContent extends SignedContent {
  ed25519: readonly string[];
}

const isPublicKey = (secret: string) => secret.startsWith("whpk_");
const joinWithBuffer = (prefix: string, payload: Uint8Array) => Buffer.concat([Buffer.from(prefix), payload]);

/**
 * Secret by secret, in order: a `whpk_` public key checks the `v1a` signatures (ed25519), any other secret the `v1`
 * ones (HMAC), with at most `MAX_ED25519_CHECKS` ed25519 checks per request. The reference JavaScript library has no
 * `v1a`; the spec defines it.
 */
const STANDARD_MATCHERS: Matchers = {
  node(crypto, content, secrets) {
    if (!secrets.some(isPublicKey)) return matchHmacWithNodeCrypto(crypto, content, secrets);
    const { ed25519 } = content as StandardContent;
    const checks = new Ed25519Checks(content, joinWithBuffer);
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const secret = secrets[secretIndex] as string;
      const signature = isPublicKey(secret)
        ? ed25519MatchNode(crypto, checks, secret, ed25519)
        : matchHmacWithNodeCrypto(crypto, content, [secret])?.signature;
      if (signature !== undefined) return { secretIndex, signature };
    }
    return undefined;
  },
  async web(content, secrets): Promise<SignatureMatch | undefined> {
    if (!secrets.some(isPublicKey)) return matchHmacWithWebCrypto(content, secrets);
    const { ed25519 } = content as StandardContent;
    const checks = new Ed25519Checks(content, signedBytes);
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const secret = secrets[secretIndex] as string;
      const signature = isPublicKey(secret)
        ? await ed25519MatchWeb(checks, secret, ed25519)
        : (await matchHmacWithWebCrypto(content, [secret]))?.signature;
      if (signature !== undefined) return { secretIndex, signature };
    }
    return undefined;
  },
};

interface Names {
  id: string;
  timestamp: string;
  signature: string;
}

function standardScheme(name: string, names: Names, fallback: Names | undefined): Scheme {
  /** The field's value, from the scheme's header or else (Svix) the Standard Webhooks one, as Svix's library reads it. */
  const fieldValue = (headers: HeaderSource, field: keyof Names) => {
    const value = headerValue(headers, names[field]);
    return value === undefined && fallback ? headerValue(headers, fallback[field]) : value;
  };
  /** How messages name a field's header: "svix-id (or webhook-id)" where there is a fallback. */
  const display = (field: keyof Names) => (fallback ? `${names[field]} (or ${fallback[field]})` : names[field]);
  const shown: Names = { id: display("id"), timestamp: display("timestamp"), signature: display("signature") };
  return defineScheme({
    name,
    signatureHeader: names.signature,
    read(payload, headers, secrets, toleranceSeconds) {
      const list = requiredValue(fieldValue(headers, "signature"), shown.signature);
      const id = requiredValue(fieldValue(headers, "id"), shown.id);
      const timestampText = requiredValue(fieldValue(headers, "timestamp"), shown.timestamp);
      const timestamp = timestampOf(timestampText, shown.timestamp);
      // One signature is the common case: no array of entries for it.
      const entries = list.includes(" ") ? list.split(" ") : [list];
      if (entries.length > MAX_SIGNATURES) throw malformed(shown.signature, `more than ${MAX_SIGNATURES} signatures`);
      const signatures: string[] = [];
      const ed25519: string[] = [];
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i] as string;
        if (entry.startsWith("v1,")) {
          const value = entry.slice(3);
          if (isBase64Sha256(value)) signatures.push(value);
        } else if (entry.startsWith("v1a,")) {
          const value = entry.slice(4);
          if (isBase64Ed25519(value)) ed25519.push(value);
        }
        // Other versions, and malformed values, never match: skipped, as the reference library does.
      }
      if (signatures.length === 0 && ed25519.length === 0) {
        throw noSignature(shown.signature, "v1 (HMAC-SHA256, base64) or v1a (ed25519) signature");
      }
      const content: StandardContent = {
        prefix: `${id}.${timestampText}.`,
        payload,
        signatures,
        encoding: "base64",
        format: WHSEC,
        label: "v1",
        matchers: STANDARD_MATCHERS,
        ed25519,
      };
      return { content, secrets, timestamp, toleranceSeconds };
    },
    secretKind: standardSecretKind,
    typeOf: payloadType,
    idOf: (_event, _body, headers) => fieldValue(headers, "id"),
    sign(payload, secret, options) {
      const bytes = signingBytes(payload, secret);
      const timestamp = signingTime(options?.timestamp);
      const id = options?.id ?? `msg_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
      const prefix = `${id}.${timestamp}.`;
      if (!secret.startsWith("whsk_")) standardSecretKind(secret);
      const signature = secret.startsWith("whsk_")
        ? `v1a,${ed25519Sign(secret, Buffer.concat([Buffer.from(prefix), bytes]))}`
        : `v1,${hmac(secret, prefix, bytes, WHSEC).toString("base64")}`;
      return { [names.id]: id, [names.timestamp]: String(timestamp), [names.signature]: signature };
    },
  });
}

const STANDARD: Names = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" };
const SVIX: Names = { id: "svix-id", timestamp: "svix-timestamp", signature: "svix-signature" };
const STANDARD_WEBHOOKS = /* @__PURE__ */ standardScheme("standard-webhooks", STANDARD, undefined);
const SVIX_SCHEME = /* @__PURE__ */ standardScheme("svix", SVIX, STANDARD);

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and `webhook-signature`, a space-separated
 * list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under a `whsec_<base64>` secret and `v1a,<base64 ed25519>`
 * under a `whpk_<base64>` public key; 5-minute tolerance; dedup by `webhook-id`; the type from the payload's `type`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { standardWebhooks } from "@tidings/core/schemes";
 *
 * type Events = { "user.created": { type: "user.created"; data: { id: string; email: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: standardWebhooks<Events>(),
 *   secret: process.env.WEBHOOK_SECRET!, // "whsec_…", or a "whpk_…" public key for ed25519 (v1a) signatures
 * }).on("user.created", (event) => console.log("new user", event.data.email));
 * ```
 */
export function standardWebhooks<Events extends EventMap = EventMap>(): Scheme<Events> {
  return STANDARD_WEBHOOKS as Scheme<Events>;
}

/**
 * Svix: Standard Webhooks with `svix-id`, `svix-timestamp`, `svix-signature` (falling back to `webhook-*`, as svix does).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { svix } from "@tidings/core/schemes";
 *
 * export const receiver = createReceiver({ scheme: svix(), secret: process.env.SVIX_WEBHOOK_SECRET! }).onAny(
 *   (event, ctx) => console.log(ctx.type, ctx.deliveryKey, event), // dedup by svix-id
 * );
 * ```
 */
export function svix<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SVIX_SCHEME as Scheme<Events>;
}
