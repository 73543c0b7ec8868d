import { base64ToBytes } from "../crypto/base64";
import { remember } from "../crypto/key-cache";
import { findNodeCrypto, type NodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import type { SignedContent } from "../crypto/signed-content";

// A raw 32-byte ed25519 key as DER: the fixed SPKI prefix (public) and PKCS#8 prefix (private seed) of RFC 8410.
const SPKI_PREFIX = /* @__PURE__ */ Uint8Array.of(
  0x30,
  0x2a,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x03,
  0x21,
  0x00,
);
const PKCS8_PREFIX = /* @__PURE__ */ Uint8Array.of(
  0x30,
  0x2e,
  0x02,
  0x01,
  0x00,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x04,
  0x22,
  0x04,
  0x20,
);

// Made once per key (`null`: not a well-formed `whpk_` key, which verifies nothing).
const nodeKeys = new Map<string, import("node:crypto").KeyObject | null>();
const webKeys = new Map<string, Promise<CryptoKey> | null>();

/**
 * The most ed25519 checks one request may cost, each hashing the whole body: a sender rotating its key signs with two,
 * an endpoint rotating holds two, so a genuine delivery needs at most 2 × 2. Past them the rest of its `v1a` entries
 * are not tried: a forged header of 32 entries to an endpoint of several keys costs 4 checks, not 64.
 */
export const MAX_ED25519_CHECKS = 4;

/** The raw key after its prefix (`whpk_`, `whsk_`), base64; a TypeError names the rule it breaks. */
export function rawKey(secret: string, prefix: string, lengths: readonly number[]): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = base64ToBytes(secret.slice(prefix.length));
  } catch {
    bytes = undefined;
  }
  if (!secret.startsWith(prefix) || bytes === undefined || !lengths.includes(bytes.length)) {
    throw new TypeError(`An ed25519 key must be ${prefix}<base64 of ${lengths.join(" or ")} bytes>`);
  }
  return bytes;
}

/** The raw 32-byte public key of a `whpk_` secret, or undefined when it is not one. */
function publicKeyBytes(publicKey: string): Uint8Array | undefined {
  try {
    return rawKey(publicKey, "whpk_", [32]);
  } catch {
    return undefined;
  }
}

function cached<Key>(cache: Map<string, Key | null>, secret: string, make: (raw: Uint8Array) => Key): Key | null {
  let key = cache.get(secret);
  if (key === undefined) {
    const raw = publicKeyBytes(secret);
    key = remember(cache, secret, raw ? make(raw) : null);
  }
  return key;
}

function der(prefix: Uint8Array, raw: Uint8Array): Buffer {
  return Buffer.concat([prefix, raw.subarray(0, 32)]);
}

/**
 * The ed25519 checks one request may still make (`MAX_ED25519_CHECKS` in all, across its endpoint's keys), and the
 * signed bytes, joined once for every key.
 */
export class Ed25519Checks {
  left = MAX_ED25519_CHECKS;
  data: Uint8Array | undefined = undefined;

  /** `join`: the prefix and body as one buffer, the runtime's fastest way. */
  constructor(
    readonly content: SignedContent,
    private readonly join: (prefix: string, payload: Uint8Array) => Uint8Array,
  ) {}

  bytes(): Uint8Array {
    this.data ??= this.join(this.content.prefix, this.content.payload);
    return this.data;
  }

  /** The signatures still to try, counted as tried. */
  take(signatures: readonly string[]): readonly string[] {
    const taken = signatures.length > this.left ? signatures.slice(0, this.left) : signatures;
    this.left -= taken.length;
    return taken;
  }
}

/** The first of `signatures` (base64) that `publicKey` (`whpk_…`) verifies over the signed content, with node:crypto. */
export function ed25519MatchNode(
  crypto: NodeCrypto,
  checks: Ed25519Checks,
  publicKey: string,
  signatures: readonly string[],
): string | undefined {
  const key = cached(nodeKeys, publicKey, (raw) =>
    crypto.createPublicKey({ key: der(SPKI_PREFIX, raw), format: "der", type: "spki" }),
  );
  if (key === null) return undefined;
  for (const signature of checks.take(signatures)) {
    if (crypto.verify(null, checks.bytes(), key, Buffer.from(signature, "base64"))) return signature;
  }
  return undefined;
}

/** The same with Web Crypto (Ed25519 is in current Node, Deno, Bun and workerd). */
export async function ed25519MatchWeb(
  checks: Ed25519Checks,
  publicKey: string,
  signatures: readonly string[],
): Promise<string | undefined> {
  const key = cached(webKeys, publicKey, (raw) => {
    const imported = crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, { name: "Ed25519" }, false, [
      "verify",
    ]);
    imported.catch(() => webKeys.delete(publicKey));
    return imported;
  });
  if (key === null) return undefined;
  for (const signature of checks.take(signatures)) {
    const bytes = base64ToBytes(signature) as Uint8Array<ArrayBuffer>;
    const data = checks.bytes() as Uint8Array<ArrayBuffer>;
    if (await crypto.subtle.verify({ name: "Ed25519" }, await key, bytes, data)) return signature;
  }
  return undefined;
}

/** Signs with a `whsk_` key (base64 of the 32-byte seed, or of seed + public key): base64 of the 64-byte signature. */
export function ed25519Sign(secretKey: string, data: Uint8Array): string {
  const crypto = requireNodeCrypto("sign");
  const key = crypto.createPrivateKey({
    key: der(PKCS8_PREFIX, rawKey(secretKey, "whsk_", [32, 64])),
    format: "der",
    type: "pkcs8",
  });
  return crypto.sign(null, data, key).toString("base64");
}

/**
 * `whpk_…` for a `whsk_…` key: what the receiver holds.
 *
 * @example
 * ```ts
 * import { randomBytes } from "node:crypto";
 * import { ed25519PublicKey, standardWebhooks } from "@tidings/core/schemes";
 *
 * // In a test: the sender signs v1a with the secret key, the receiver verifies with the public key.
 * const secretKey = `whsk_${randomBytes(32).toString("base64")}`;
 * const publicKey = ed25519PublicKey(secretKey); // "whpk_…"
 *
 * const body = JSON.stringify({ type: "user.created", data: { id: "u_1" } });
 * const headers = standardWebhooks().sign(body, secretKey);
 * console.log(standardWebhooks().verify(body, headers, publicKey)); // { timestamp, secretIndex: 0 }
 * ```
 */
export function ed25519PublicKey(secretKey: string): string {
  const crypto = findNodeCrypto() ?? requireNodeCrypto("publicKey");
  const key = crypto.createPrivateKey({
    key: der(PKCS8_PREFIX, rawKey(secretKey, "whsk_", [32, 64])),
    format: "der",
    type: "pkcs8",
  });
  const spki = crypto.createPublicKey(key).export({ format: "der", type: "spki" });
  return `whpk_${spki.subarray(SPKI_PREFIX.length).toString("base64")}`;
}
