import { nodeBuiltin } from "../runtime";
import type { SecretFormat, SignatureMatch, SignedContent } from "./signed-content";

export type NodeCrypto = typeof import("node:crypto");

let nodeCrypto: NodeCrypto | null | undefined;

/** node:crypto where the runtime has it; looked up once. */
export function findNodeCrypto(): NodeCrypto | undefined {
  if (nodeCrypto === undefined) nodeCrypto = nodeBuiltin<NodeCrypto>("node:crypto") ?? null;
  return nodeCrypto ?? undefined;
}

/** `caller` names the function for the error message; `alternative` the one that works without node:crypto. */
export function requireNodeCrypto(caller: string, alternative?: string): NodeCrypto {
  const crypto = findNodeCrypto();
  if (crypto === undefined) {
    const instead = alternative ? `; use ${alternative}()` : "";
    throw new Error(`${caller}() needs node:crypto${instead}.`);
  }
  return crypto;
}

// Each secret's key, made once: encoding the string on every call costs about as much as parsing the header.
// Secrets are few and long-lived; the Web Crypto path caches its imported keys the same way. A KeyObject rather
// than the key's bytes: from Node 24, createHmac probes a Buffer key for KeyObject and CryptoKey by throwing and
// catching two TypeErrors, which makes an HMAC of a small body four times as slow; a KeyObject skips the probe.
type HmacKey = import("node:crypto").KeyObject | Buffer;
const keys = new Map<string, HmacKey>();

function keyFor(crypto: NodeCrypto, secret: string, format: SecretFormat | undefined): HmacKey {
  const cache = (format?.nodeKeys ?? keys) as Map<string, HmacKey>;
  let key = cache.get(secret);
  if (key === undefined) {
    if (cache.size >= 32) cache.clear();
    const bytes = Buffer.from(format ? format.keyBytes(secret) : secret);
    key = typeof crypto.createSecretKey === "function" ? crypto.createSecretKey(bytes) : bytes;
    cache.set(secret, key);
  }
  return key;
}

export function hmacWithNodeCrypto(
  crypto: NodeCrypto,
  secret: string,
  prefix: string,
  payload: Uint8Array,
  format?: SecretFormat,
): Buffer {
  return crypto
    .createHmac("sha256", keyFor(crypto, secret, format))
    .update(prefix)
    .update(payload)
    .digest();
}

export function matchWithNodeCrypto(
  crypto: NodeCrypto,
  content: SignedContent,
  secrets: readonly string[],
): SignatureMatch | undefined {
  return content.matchers
    ? content.matchers.node(crypto, content, secrets)
    : matchHmacWithNodeCrypto(crypto, content, secrets);
}

/** The HMAC-SHA256 of the content under each secret, against each of its signatures; the content's matchers unused. */
export function matchHmacWithNodeCrypto(
  crypto: NodeCrypto,
  content: SignedContent,
  secrets: readonly string[],
): SignatureMatch | undefined {
  const encoding = content.encoding ?? "hex";
  const candidates = content.signatures.map((text) => Buffer.from(text, encoding));
  for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
    const secret = secrets[secretIndex] as string;
    const expected = hmacWithNodeCrypto(crypto, secret, content.prefix, content.payload, content.format);
    for (let i = 0; i < candidates.length; i++) {
      if (crypto.timingSafeEqual(expected, candidates[i] as Buffer)) {
        return { secretIndex, signature: content.signatures[i] as string };
      }
    }
  }
  return undefined;
}
