import { constantTimeEqual } from "./constant-time";
import { remember } from "./key-cache";
import type { NodeCrypto } from "./node-crypto";
import { UTF8_SECRET } from "./secret-kind";
import type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "./signed-content";
import { signedBytes } from "./web-crypto";

const encoder = /* @__PURE__ */ new TextEncoder();
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * A secret's bytes as a token is compared with them: in 32-bit words, zero-padded to a power of two of them, so that
 * `words[i & mask]` is its word at `i` below its `length` in bytes, and an index past the end wraps without a division.
 */
export interface ExpectedToken {
  words: Int32Array;
  length: number;
  mask: number;
}

export function expectedToken(secret: Uint8Array): ExpectedToken {
  let size = 1;
  while (size * 4 < secret.length) size *= 2;
  const words = new Int32Array(size);
  new Uint8Array(words.buffer).set(secret);
  return { words, length: secret.length, mask: size - 1 };
}

// Each secret's token, read once per format (as HMAC keys are); `null`: the secret is no token as the format reads it.
const tokens = /* @__PURE__ */ new Map<SecretFormat, Map<string, ExpectedToken | null>>();
// The token last looked up, which an endpoint's next delivery looks up again: found without hashing the secret.
let last: { format: SecretFormat; secret: string; token: ExpectedToken | null } | undefined;

function tokenOf(format: SecretFormat, secret: string): ExpectedToken | null {
  let cache = tokens.get(format);
  if (cache === undefined) {
    cache = new Map();
    tokens.set(format, cache);
  }
  let token = cache.get(secret);
  if (token === undefined) {
    const bytes = format.keyBytes(secret);
    token = remember(cache, secret, bytes === undefined ? null : expectedToken(bytes));
  }
  last = { format, secret, token };
  return token;
}

// The received token's UTF-8 bytes are written here rather than into a new array each time; a longer token than this
// keeps gets an array of its own.
const KEPT_BYTES = 64 * 1024;
let receivedBytes = /* @__PURE__ */ new Uint8Array(1024);
let receivedWords = /* @__PURE__ */ new Int32Array(receivedBytes.buffer);

/**
 * Whether the UTF-8 bytes of `received` are `expected`'s, in a time that depends on `received` alone: every word of
 * them is compared (past the secret's length, with a word of the padding or of the secret, wrapping round), so the time
 * tells neither where they differ nor how long the secret is.
 */
export function sameToken(received: string, expected: ExpectedToken): boolean {
  // Room for the UTF-8 of any text this long (at most 3 bytes per UTF-16 unit) and the zeros that end its last word.
  const room = (received.length * 3 + 4 + 3) & ~3;
  let bytes = receivedBytes;
  let words = receivedWords;
  if (room > bytes.length) {
    bytes = new Uint8Array(room);
    words = new Int32Array(bytes.buffer);
    if (room <= KEPT_BYTES) {
      receivedBytes = bytes;
      receivedWords = words;
    }
  }
  const { written } = encoder.encodeInto(received, bytes);
  bytes[written] = 0;
  bytes[written + 1] = 0;
  bytes[written + 2] = 0;
  const { words: secret, length, mask } = expected;
  let difference = written ^ length;
  const count = (written + 3) >>> 2;
  for (let i = 0; i < count; i++) difference |= (words[i] as number) ^ (secret[i & mask] as number);
  return difference === 0;
}

/**
 * A token that matched: the body's hex SHA-256 is made only when it is read (the Receiver's dedup key where the sender
 * gives no id), so that a standalone verify, which returns no signature, never hashes the body.
 */
class TokenMatch implements SignatureMatch {
  hash: string | undefined = undefined;

  constructor(
    readonly secretIndex: number,
    readonly crypto: NodeCrypto,
    readonly content: SignedContent,
  ) {}

  get signature(): string {
    const { crypto, content } = this;
    this.hash ??= crypto.createHash("sha256").update(content.prefix).update(content.payload).digest("hex");
    return this.hash;
  }
}

/**
 * Matchers for a shared token the sender sends as it is (GitLab's `X-Gitlab-Token`, Postmark's Basic credentials):
 * the token the scheme read (`content.signatures[0]`) against each secret, compared in constant time so that neither
 * a token's bytes nor its length show in the time taken: with node:crypto, their UTF-8 bytes, every byte of the token
 * compared whatever the secret's length; with Web Crypto, their SHA-256 digests. A token proves less than a
 * signature: whoever sees one request can send any body with it.
 *
 * What matched is reported as the hex SHA-256 of the body (the dedup key where the sender gives no id), never the
 * token, which would otherwise become a dedup key, a log field and the key every later delivery shares.
 */
export const TOKEN_MATCHERS: Matchers = {
  node(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): SignatureMatch | undefined {
    const format = content.format ?? UTF8_SECRET;
    const token = content.signatures[0] ?? "";
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const secret = secrets[secretIndex] as string;
      const expected = last?.secret === secret && last.format === format ? last.token : tokenOf(format, secret);
      if (expected !== null && sameToken(token, expected)) return new TokenMatch(secretIndex, crypto, content);
    }
    return undefined;
  },
  async web(content: SignedContent, secrets: readonly string[]): Promise<SignatureMatch | undefined> {
    const format = content.format ?? UTF8_SECRET;
    const digest = async (bytes: Uint8Array) =>
      new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
    const token = await digest(encoder.encode(content.signatures[0] ?? ""));
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const bytes = format.keyBytes(secrets[secretIndex] as string);
      if (bytes === undefined) continue;
      if (constantTimeEqual(token, await digest(bytes))) {
        return { secretIndex, signature: toHex(await digest(signedBytes(content.prefix, content.payload))) };
      }
    }
    return undefined;
  },
};
