import { base64ToBytes } from "../crypto/base64";
import { hexToBytes } from "../crypto/hex";
import { findNodeCrypto, type NodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import {
  type KeyChecks,
  MAX_PUBLIC_KEY_CHECKS,
  type PublicKeyFormat,
  publicKeyMatchNode,
  publicKeyMatchWeb,
} from "../crypto/public-key";

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

/**
 * The most ed25519 checks one request may cost: `MAX_PUBLIC_KEY_CHECKS`, shared by every public-key scheme.
 */
export const MAX_ED25519_CHECKS = MAX_PUBLIC_KEY_CHECKS;

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

function der(prefix: Uint8Array, raw: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(prefix.length + 32);
  bytes.set(prefix);
  bytes.set(raw.subarray(0, 32), prefix.length);
  return bytes;
}

/**
 * Ed25519 public keys written as `raw` reads them (the 32 raw bytes, or undefined when the secret is not such a key),
 * and signatures written in `encoding` (64 bytes), which `read` validated: node:crypto gets them as a Buffer decoded
 * natively, Web Crypto as bytes decoded in JavaScript.
 */
export function ed25519Format(
  raw: (secret: string) => Uint8Array | undefined,
  encoding: "hex" | "base64",
): PublicKeyFormat {
  return {
    kind: "ed25519",
    spki(secret) {
      const bytes = raw(secret);
      return bytes && der(SPKI_PREFIX, bytes);
    },
    nodeHash: null,
    webImport: { name: "Ed25519" },
    webVerify: { name: "Ed25519" },
    nodeSignature: (text) => Buffer.from(text, encoding),
    webSignature: encoding === "hex" ? hexToBytes : base64ToBytes,
    nodeKeys: new Map(),
    webKeys: new Map(),
  };
}

/** A `whpk_` public key's raw 32 bytes, or undefined when it is not one. */
function whpkBytes(publicKey: string): Uint8Array | undefined {
  try {
    return rawKey(publicKey, "whpk_", [32]);
  } catch {
    return undefined;
  }
}

const WHPK = /* @__PURE__ */ ed25519Format(whpkBytes, "base64");

/** The checks one request may still make, and the signed bytes, joined once for every key. */
export { KeyChecks as Ed25519Checks } from "../crypto/public-key";

/** The first of `signatures` (base64) that `publicKey` (`whpk_…`) verifies over the signed content, with node:crypto. */
export function ed25519MatchNode(
  crypto: NodeCrypto,
  checks: KeyChecks,
  publicKey: string,
  signatures: readonly string[],
): string | undefined {
  return publicKeyMatchNode(crypto, WHPK, checks, publicKey, signatures);
}

/** The same with Web Crypto (Ed25519 is in current Node, Deno, Bun and workerd). */
export function ed25519MatchWeb(
  checks: KeyChecks,
  publicKey: string,
  signatures: readonly string[],
): Promise<string | undefined> {
  return publicKeyMatchWeb(WHPK, checks, publicKey, signatures);
}

/** Signs `data` with an ed25519 private key's 32-byte seed: the 64-byte signature. */
export function ed25519SignRaw(seed: Uint8Array, data: Uint8Array): Buffer {
  const crypto = requireNodeCrypto("sign");
  const key = crypto.createPrivateKey({ key: Buffer.from(der(PKCS8_PREFIX, seed)), format: "der", type: "pkcs8" });
  return crypto.sign(null, data, key);
}

/** The raw 32-byte public key of an ed25519 private key's 32-byte seed. */
export function ed25519PublicRaw(seed: Uint8Array): Buffer {
  const crypto = findNodeCrypto() ?? requireNodeCrypto("publicKey");
  const key = crypto.createPrivateKey({ key: Buffer.from(der(PKCS8_PREFIX, seed)), format: "der", type: "pkcs8" });
  return crypto.createPublicKey(key).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length);
}

/** Signs with a `whsk_` key (base64 of the 32-byte seed, or of seed + public key): base64 of the 64-byte signature. */
export function ed25519Sign(secretKey: string, data: Uint8Array): string {
  return ed25519SignRaw(rawKey(secretKey, "whsk_", [32, 64]), data).toString("base64");
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
  return `whpk_${ed25519PublicRaw(rawKey(secretKey, "whsk_", [32, 64])).toString("base64")}`;
}
