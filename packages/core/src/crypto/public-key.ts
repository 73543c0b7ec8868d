import { remember } from "./key-cache";
import type { NodeCrypto } from "./node-crypto";
import type { SecretKind } from "./secret-kind";
import type { Matchers, SignatureMatch, SignedContent } from "./signed-content";
import { signedBytes } from "./web-crypto";

/**
 * The most public-key checks one request may cost, each hashing the whole body: a sender rotating its key signs with
 * two, an endpoint rotating holds two, so a genuine delivery needs at most 2 × 2. Past them the rest are not tried:
 * a forged header of 32 entries to an endpoint of several keys costs 4 checks, not 64.
 */
export const MAX_PUBLIC_KEY_CHECKS = 4;

/**
 * How a sender writes its public keys and signatures (ed25519 or ECDSA P-256), with the keys made from them cached per
 * secret, one cache per format.
 */
export interface PublicKeyFormat {
  kind: SecretKind;
  /** The key as DER SubjectPublicKeyInfo; undefined for a secret not written this way, which verifies nothing. */
  spki(secret: string): Uint8Array | undefined;
  /** node:crypto's `verify` algorithm: null for ed25519, `sha256` for ECDSA. */
  nodeHash: "sha256" | null;
  webImport: { name: "Ed25519" } | { name: "ECDSA"; namedCurve: "P-256" };
  webVerify: { name: "Ed25519" } | { name: "ECDSA"; hash: "SHA-256" };
  /** A signature as `read` accepted it, as node:crypto verifies it (ECDSA: DER). */
  nodeSignature(text: string): Uint8Array;
  /** The same as Web Crypto verifies it (ECDSA: r ‖ s). */
  webSignature(text: string): Uint8Array;
  nodeKeys: Map<string, import("node:crypto").KeyObject | null>;
  webKeys: Map<string, Promise<CryptoKey> | null>;
}

/**
 * The public-key checks one request may still make (`MAX_PUBLIC_KEY_CHECKS` in all, across its endpoint's keys), and
 * the signed bytes, joined once for every key.
 */
export class KeyChecks {
  left = MAX_PUBLIC_KEY_CHECKS;
  data: Uint8Array | undefined = undefined;

  /** `join`: the prefix, body and suffix as one buffer, the runtime's fastest way. */
  constructor(
    readonly content: SignedContent,
    private readonly join: (prefix: string, payload: Uint8Array, suffix?: string) => Uint8Array,
  ) {}

  bytes(): Uint8Array {
    this.data ??= this.join(this.content.prefix, this.content.payload, this.content.suffix);
    return this.data;
  }

  /** The signatures still to try, counted as tried. */
  take(signatures: readonly string[]): readonly string[] {
    const taken = signatures.length > this.left ? signatures.slice(0, this.left) : signatures;
    this.left -= taken.length;
    return taken;
  }
}

/** The first of `signatures` that `publicKey` verifies over the signed content, with node:crypto. */
export function publicKeyMatchNode(
  crypto: NodeCrypto,
  format: PublicKeyFormat,
  checks: KeyChecks,
  publicKey: string,
  signatures: readonly string[],
): string | undefined {
  let key = format.nodeKeys.get(publicKey);
  if (key === undefined) {
    const der = format.spki(publicKey);
    const made = der ? crypto.createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" }) : null;
    key = remember(format.nodeKeys, publicKey, made);
  }
  if (key === null) return undefined;
  for (const signature of checks.take(signatures)) {
    if (crypto.verify(format.nodeHash, checks.bytes(), key, format.nodeSignature(signature))) return signature;
  }
  return undefined;
}

/** The same with Web Crypto (Ed25519 is in current Node, Deno, Bun and workerd; ECDSA P-256 everywhere). */
export async function publicKeyMatchWeb(
  format: PublicKeyFormat,
  checks: KeyChecks,
  publicKey: string,
  signatures: readonly string[],
): Promise<string | undefined> {
  let key = format.webKeys.get(publicKey);
  if (key === undefined) {
    const der = format.spki(publicKey) as Uint8Array<ArrayBuffer> | undefined;
    const imported = der && crypto.subtle.importKey("spki", der, format.webImport, false, ["verify"]);
    imported?.catch(() => format.webKeys.delete(publicKey));
    key = remember(format.webKeys, publicKey, imported ?? null);
  }
  if (key === null) return undefined;
  for (const signature of checks.take(signatures)) {
    const bytes = format.webSignature(signature) as Uint8Array<ArrayBuffer>;
    const data = checks.bytes() as Uint8Array<ArrayBuffer>;
    if (await crypto.subtle.verify(format.webVerify, await key, bytes, data)) return signature;
  }
  return undefined;
}

const joinWithBuffer = (prefix: string, payload: Uint8Array, suffix?: string) =>
  Buffer.concat(suffix ? [Buffer.from(prefix), payload, Buffer.from(suffix)] : [Buffer.from(prefix), payload]);

/**
 * Matchers for a scheme whose every secret is a public key of `format`: secret by secret, in order, each tried on the
 * signatures, with at most `MAX_PUBLIC_KEY_CHECKS` checks per request.
 */
export function publicKeyMatchers(format: PublicKeyFormat): Matchers {
  return {
    node(crypto, content, secrets): SignatureMatch | undefined {
      const checks = new KeyChecks(content, joinWithBuffer);
      for (let secretIndex = 0; secretIndex < secrets.length && checks.left > 0; secretIndex++) {
        const signature = publicKeyMatchNode(
          crypto,
          format,
          checks,
          secrets[secretIndex] as string,
          content.signatures,
        );
        if (signature !== undefined) return { secretIndex, signature };
      }
      return undefined;
    },
    async web(content, secrets): Promise<SignatureMatch | undefined> {
      const checks = new KeyChecks(content, signedBytes);
      for (let secretIndex = 0; secretIndex < secrets.length && checks.left > 0; secretIndex++) {
        const signature = await publicKeyMatchWeb(format, checks, secrets[secretIndex] as string, content.signatures);
        if (signature !== undefined) return { secretIndex, signature };
      }
      return undefined;
    },
  };
}
