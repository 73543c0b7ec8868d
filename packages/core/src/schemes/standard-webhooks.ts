import { base64ToBytes } from "../crypto/base64";
import { matchHmacWithNodeCrypto } from "../crypto/node-crypto";
import { isAsymmetricKey, type SecretKind } from "../crypto/secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "../crypto/signed-content";
import { matchHmacWithWebCrypto, signedBytes } from "../crypto/web-crypto";
import type { EventMap } from "../event-map";
import { type HeaderSource, headerValue } from "../http/headers";
import { isBase64Ed25519, isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { Ed25519Checks, ed25519MatchNode, ed25519MatchWeb, ed25519Sign, rawKey } from "./ed25519";
import { malformed, noSignature, requiredValue, timestampOf } from "./headers";
import { payloadType } from "./payload-fields";
import type { Scheme, SchemeAbout } from "./scheme";
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
  nodeKeys: /* @__PURE__ */ new Map(),
  webKeys: /* @__PURE__ */ new Map(),
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

/** The three headers a Standard Webhooks sender writes, lower-case. */
export interface StandardNames {
  id: string;
  timestamp: string;
  signature: string;
}

/** The standard's ed25519 `v1a` signatures: read, matched with `whpk_` keys, and signed with `whsk_` ones. */
interface Ed25519Parts {
  matchers: Matchers;
  sign(secret: string, signed: Uint8Array): string;
}

/** A sender that signs the Standard Webhooks way: its name, its headers, and how it writes its secrets. */
export interface StandardSender {
  name: string;
  about: SchemeAbout;
  names: StandardNames;
  /** Headers read when the sender's are absent, as Svix's library reads `webhook-*` for `svix-*`. */
  fallback?: StandardNames | undefined;
  /** How the sender's HMAC secret becomes the key, and which secrets the scheme takes. */
  format: SecretFormat;
  secretKind(secret: string): SecretKind;
  /** The sender's own matchers, where one secret may stand for more than one key (Polar's). */
  matchers?: Matchers | undefined;
  /** For the standard and Svix only: a named sender signs no `v1a`, so its scheme reads none. */
  ed25519?: Ed25519Parts | undefined;
}

/** `whsec_<base64>` HMAC secrets only (the prefix optional, as in the reference library); `sender` names the rule. */
export function whsecSecretKind(sender: string): (secret: string) => SecretKind {
  return (secret) => {
    if (isAsymmetricKey(secret) || WHSEC.keyBytes(secret) === undefined) {
      throw new TypeError(`A ${sender} webhook signing secret is whsec_<base64>, as its dashboard shows it`);
    }
    return "hmac";
  };
}

/**
 * A scheme for a sender that signs as Standard Webhooks do (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * entries): the standard itself, Svix, and the senders that sign through them (Clerk, Resend, Polar, Liveblocks).
 * 5-minute tolerance; dedup by the id header; the type from the payload's `type`.
 */
export function standardScheme(sender: StandardSender): Scheme {
  const { names, fallback, format, ed25519: v1a } = sender;
  const matchers = v1a?.matchers ?? sender.matchers;
  /** The field's value, from the scheme's header or else (Svix) the Standard Webhooks one, as Svix's library reads it. */
  const fieldValue = (headers: HeaderSource, field: keyof StandardNames) => {
    const value = headerValue(headers, names[field]);
    return value === undefined && fallback ? headerValue(headers, fallback[field]) : value;
  };
  /** How messages name a field's header: "svix-id (or webhook-id)" where there is a fallback. */
  const display = (field: keyof StandardNames) => (fallback ? `${names[field]} (or ${fallback[field]})` : names[field]);
  const shown: StandardNames = { id: display("id"), timestamp: display("timestamp"), signature: display("signature") };
  const wanted = v1a ? "v1 (HMAC-SHA256, base64) or v1a (ed25519) signature" : "v1 (HMAC-SHA256, base64) signature";
  return defineScheme({
    name: sender.name,
    about: sender.about,
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
        } else if (v1a && entry.startsWith("v1a,")) {
          const value = entry.slice(4);
          if (isBase64Ed25519(value)) ed25519.push(value);
        }
        // Other versions, and malformed values, never match: skipped, as the reference library does.
      }
      if (signatures.length === 0 && ed25519.length === 0) throw noSignature(shown.signature, wanted);
      const prefix = `${id}.${timestampText}.`;
      const content: StandardContent = {
        prefix,
        payload,
        signatures,
        encoding: "base64",
        format,
        label: "v1",
        ed25519,
      };
      if (matchers) content.matchers = matchers;
      return { content, secrets, timestamp, toleranceSeconds };
    },
    secretKind: sender.secretKind,
    typeOf: payloadType,
    idOf: (_event, _body, headers) => fieldValue(headers, "id"),
    sign(payload, secret, options) {
      const bytes = signingBytes(payload, secret);
      const timestamp = signingTime(options?.timestamp);
      const id = options?.id ?? `msg_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
      const prefix = `${id}.${timestamp}.`;
      let signature: string;
      if (v1a && secret.startsWith("whsk_")) {
        signature = `v1a,${v1a.sign(secret, Buffer.concat([Buffer.from(prefix), bytes]))}`;
      } else {
        sender.secretKind(secret);
        signature = `v1,${hmac(secret, prefix, bytes, format).toString("base64")}`;
      }
      return { [names.id]: id, [names.timestamp]: String(timestamp), [names.signature]: signature };
    },
  });
}

export const STANDARD: StandardNames = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
};
export const SVIX: StandardNames = { id: "svix-id", timestamp: "svix-timestamp", signature: "svix-signature" };

const V1A: Ed25519Parts = { matchers: STANDARD_MATCHERS, sign: ed25519Sign };

const STANDARD_WEBHOOKS = /* @__PURE__ */ standardScheme({
  name: "standard-webhooks",
  about: {
    sender: "Standard Webhooks",
    docs: "https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md",
    headers: ["webhook-signature", "webhook-id", "webhook-timestamp"],
    signs:
      "HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, base64, as `v1,<base64>`; or ed25519 of the same, as `v1a,<base64>`; several, space-separated",
    secret:
      "`whsec_<base64>` (the prefix optional), the decoded bytes as the HMAC key; `whpk_<base64>`, an ed25519 public key",
    replay: "5 minutes, from `webhook-timestamp`",
    dedup: { key: "`webhook-id` (signed)", signed: true },
    testedAgainst: "`standardwebhooks` 1: both directions (`v1`); `v1a` with keys made by node:crypto",
  },
  names: STANDARD,
  format: WHSEC,
  secretKind: standardSecretKind,
  ed25519: V1A,
});

const SVIX_SCHEME = /* @__PURE__ */ standardScheme({
  name: "svix",
  about: {
    sender: "Svix",
    docs: "https://docs.svix.com/receiving/verifying-payloads/how-manual",
    headers: ["svix-signature", "svix-id", "svix-timestamp"],
    signs: "HMAC-SHA256 of `<svix-id>.<svix-timestamp>.<body>`, base64, as `v1,<base64>`; several, space-separated",
    secret: "`whsec_<base64>` (the prefix optional), the decoded bytes as the HMAC key",
    replay: "5 minutes, from `svix-timestamp`",
    dedup: { key: "`svix-id` (signed)", signed: true },
    testedAgainst: "`svix` 2: both directions",
  },
  names: SVIX,
  fallback: STANDARD,
  format: WHSEC,
  secretKind: standardSecretKind,
  ed25519: V1A,
});

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
