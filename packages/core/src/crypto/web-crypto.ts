import { base64ToBytes } from "./base64";
import { constantTimeEqual } from "./constant-time";
import { hexToBytes } from "./hex";
import { MAX_KEYS } from "./key-cache";
import type { SecretFormat, SignatureMatch, SignedContent } from "./signed-content";

const encoder = /* @__PURE__ */ new TextEncoder();
// Importing a key is the costly part of a Web Crypto HMAC. `null`: the secret is no HMAC key here.
const keyCache = /* @__PURE__ */ new Map<string, Promise<CryptoKey> | null>();

function importKey(secret: string, format: SecretFormat | undefined): Promise<CryptoKey> | null {
  const cache = format?.webKeys ?? keyCache;
  let key = cache.get(secret);
  if (key === undefined) {
    const bytes = format ? format.keyBytes(secret) : encoder.encode(secret);
    key = bytes
      ? crypto.subtle.importKey("raw", bytes as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, [
          "sign",
        ])
      : null;
    // `remember`, written out, as in node-crypto.ts: the main entry's size budget.
    if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
    cache.set(secret, key);
    // A failed import is not kept: the next delivery tries again.
    key?.catch(() => cache.delete(secret));
  }
  return key;
}

export function signedBytes(prefix: string, payload: Uint8Array, suffix = ""): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const tail = encoder.encode(suffix);
  const bytes = new Uint8Array(head.length + payload.length + tail.length);
  bytes.set(head);
  bytes.set(payload, head.length);
  bytes.set(tail, head.length + payload.length);
  return bytes;
}

export function matchWithWebCrypto(
  content: SignedContent,
  secrets: readonly string[],
): Promise<SignatureMatch | undefined> {
  return content.matchers ? content.matchers.web(content, secrets) : matchHmacWithWebCrypto(content, secrets);
}

/** The HMAC-SHA256 of the content under each secret, against each of its signatures; a secret no HMAC key is skipped. */
export async function matchHmacWithWebCrypto(
  content: SignedContent,
  secrets: readonly string[],
): Promise<SignatureMatch | undefined> {
  const candidates = content.signatures.map(content.encoding ? base64ToBytes : hexToBytes);
  const data = signedBytes(content.prefix, content.payload);
  for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
    const key = await importKey(secrets[secretIndex] as string, content.format);
    if (key === null) continue;
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
    for (let i = 0; i < candidates.length; i++) {
      if (constantTimeEqual(expected, candidates[i] as Uint8Array)) {
        return { secretIndex, signature: content.signatures[i] as string };
      }
    }
  }
  return undefined;
}
