import { constantTimeEqual } from "./constant-time";
import { hexToBytes } from "./hex";
import type { SignedContent } from "./signed-content";

const MAX_CACHED_KEYS = 32;
const encoder = new TextEncoder();
// Importing a key is the costly part of a Web Crypto HMAC; endpoint secrets are few and long-lived.
const keyCache = new Map<string, Promise<CryptoKey>>();

function importKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keyCache.set(secret, key);
    key.catch(() => keyCache.delete(secret));
  }
  return key;
}

function signedBytes(prefix: string, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const bytes = new Uint8Array(head.length + payload.length);
  bytes.set(head);
  bytes.set(payload, head.length);
  return bytes;
}

export async function matchWithWebCrypto(content: SignedContent, secrets: readonly string[]): Promise<number> {
  const candidates = content.signatures.map(hexToBytes);
  const data = signedBytes(content.prefix, content.payload);
  for (let index = 0; index < secrets.length; index++) {
    const key = await importKey(secrets[index] as string);
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
    for (const candidate of candidates) {
      if (constantTimeEqual(expected, candidate)) return index;
    }
  }
  return -1;
}
