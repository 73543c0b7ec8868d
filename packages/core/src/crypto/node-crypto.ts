import { nodeBuiltin } from "../runtime";
import type { SignatureMatch, SignedContent } from "./signed-content";

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
    const instead = alternative ? `; use ${alternative}() instead, it uses Web Crypto here` : "";
    throw new Error(`${caller}() needs node:crypto, which this runtime does not provide${instead}.`);
  }
  return crypto;
}

const MAX_CACHED_KEYS = 32;
// Encoding the secret string to key bytes on every call costs about as much as parsing the header; endpoint
// secrets are few and long-lived (the Web Crypto path caches its imported keys the same way).
const keyCache = new Map<string, Buffer>();

function keyBytes(secret: string): Buffer {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    key = Buffer.from(secret, "utf8");
    keyCache.set(secret, key);
  }
  return key;
}

export function hmacWithNodeCrypto(crypto: NodeCrypto, secret: string, prefix: string, payload: Uint8Array): Buffer {
  return crypto.createHmac("sha256", keyBytes(secret)).update(prefix).update(payload).digest();
}

export function matchWithNodeCrypto(
  crypto: NodeCrypto,
  content: SignedContent,
  secrets: readonly string[],
): SignatureMatch | undefined {
  const { signatures } = content;
  const candidates: Buffer[] = new Array(signatures.length);
  for (let i = 0; i < signatures.length; i++) candidates[i] = Buffer.from(signatures[i] as string, "hex");
  for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
    const expected = hmacWithNodeCrypto(crypto, secrets[secretIndex] as string, content.prefix, content.payload);
    for (let i = 0; i < candidates.length; i++) {
      if (crypto.timingSafeEqual(expected, candidates[i] as Buffer)) {
        return { secretIndex, signature: signatures[i] as string };
      }
    }
  }
  return undefined;
}
