import { nodeBuiltin } from "../ground/runtime";
import { MAX_KEYS } from "./key-cache";
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
// The Web Crypto path caches its imported keys the same way. A KeyObject rather than the key's bytes: from Node 24,
// createHmac probes a Buffer key for KeyObject and CryptoKey by throwing and catching two TypeErrors, which makes an
// HMAC of a small body four times as slow; a KeyObject skips the probe. `null`: the secret is no HMAC key here.
type HmacKey = import("node:crypto").KeyObject | null;
const keys = new Map<string, HmacKey>();

function keyFor(crypto: NodeCrypto, secret: string, format: SecretFormat | undefined): HmacKey {
  const cache = (format?.nodeKeys ?? keys) as Map<string, HmacKey>;
  let key = cache.get(secret);
  if (key === undefined) {
    const bytes = format ? format.keyBytes(secret) : Buffer.from(secret);
    key = bytes ? crypto.createSecretKey(bytes) : null;
    // `remember`, written out: it keeps `import { verify }` within its size budget.
    if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
    cache.set(secret, key);
  }
  return key;
}

/** The HMAC-SHA256 of `prefix` + `payload`; undefined when the secret is not an HMAC key as `format` reads it. */
export function hmacWithNodeCrypto(
  crypto: NodeCrypto,
  secret: string,
  prefix: string,
  payload: Uint8Array,
  format?: SecretFormat,
): Buffer | undefined {
  const key = keyFor(crypto, secret, format);
  return key ? hmac(crypto, key, prefix, payload) : undefined;
}

const hmac = (crypto: NodeCrypto, key: NonNullable<HmacKey>, prefix: string, payload: Uint8Array) =>
  crypto.createHmac("sha256", key).update(prefix).update(payload).digest();

export function matchWithNodeCrypto(
  crypto: NodeCrypto,
  content: SignedContent,
  secrets: readonly string[],
): SignatureMatch | undefined {
  return content.matchers
    ? content.matchers.node(crypto, content, secrets)
    : matchHmacWithNodeCrypto(crypto, content, secrets);
}

/**
 * The HMAC-SHA256 of the content under each secret, against each of its signatures; the content's matchers unused. A
 * secret that is no HMAC key as the content's format reads it (an ed25519 key, above all) is skipped.
 */
export function matchHmacWithNodeCrypto(
  crypto: NodeCrypto,
  content: SignedContent,
  secrets: readonly string[],
): SignatureMatch | undefined {
  const encoding = content.encoding ?? "hex";
  const candidates = content.signatures.map((text) => Buffer.from(text, encoding));
  for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
    const key = keyFor(crypto, secrets[secretIndex] as string, content.format);
    const expected = key && hmac(crypto, key, content.prefix, content.payload);
    for (let i = 0; expected && i < candidates.length; i++) {
      if (crypto.timingSafeEqual(expected, candidates[i] as Buffer)) {
        return { secretIndex, signature: content.signatures[i] as string };
      }
    }
  }
  return undefined;
}
