import { base64ToBytes } from "./base64";
import type { PublicKeyFormat } from "./public-key";

// DER SubjectPublicKeyInfo of an uncompressed P-256 key: this fixed opening, then the 64 bytes of the point.
const SPKI_PREFIX = /* @__PURE__ */ Uint8Array.of(
  0x30,
  0x59,
  0x30,
  0x13,
  0x06,
  0x07,
  0x2a,
  0x86,
  0x48,
  0xce,
  0x3d,
  0x02,
  0x01,
  0x06,
  0x08,
  0x2a,
  0x86,
  0x48,
  0xce,
  0x3d,
  0x03,
  0x01,
  0x07,
  0x03,
  0x42,
  0x00,
  0x04,
);
const PEM = /^-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----\s*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * An ECDSA P-256 public key as DER SubjectPublicKeyInfo, from its base64 (SendGrid's "verification key") or PEM;
 * undefined for anything else.
 */
export function p256Spki(secret: string): Uint8Array | undefined {
  const text = (PEM.exec(secret)?.[1] ?? secret).replace(/\s+/g, "");
  if (text.length !== 124 || !BASE64.test(text)) return undefined;
  const bytes = base64ToBytes(text);
  for (let i = 0; i < SPKI_PREFIX.length; i++) if (bytes[i] !== SPKI_PREFIX[i]) return undefined;
  return bytes.length === SPKI_PREFIX.length + 64 ? bytes : undefined;
}

/**
 * r and s of a DER ECDSA signature that `isBase64DerSignature` accepted, each as 32 bytes: what Web Crypto verifies.
 */
export function derToP1363(der: Uint8Array): Uint8Array {
  const out = new Uint8Array(64);
  const rEnd = 4 + (der[3] as number);
  // An INTEGER of 33 bytes opens with the zero that keeps it positive: the last 32 are the value.
  const r = der.subarray(Math.max(4, rEnd - 32), rEnd);
  const s = der.subarray(Math.max(rEnd + 2, der.length - 32));
  out.set(r, 32 - r.length);
  out.set(s, 64 - s.length);
  return out;
}

// Base64's alphabet, then at most two `=`: a `+` loop, the length and the padding's rules checked apart.
const BASE64_TEXT = /^[A-Za-z0-9+/]+={0,2}$/;

/** A base64 character's value (`A` 0 … `/` 63): the text was checked to be of the alphabet. */
function sextet(code: number): number {
  if (code >= 97) return code - 71;
  if (code >= 65) return code - 65;
  if (code >= 48) return code + 4;
  return code === 43 ? 62 : 63;
}

/** Byte `at` of what base64 text of the alphabet decodes to, read from its four characters alone. */
function byteAt(text: string, at: number): number {
  const group = (at / 3) | 0;
  const shift = at - group * 3;
  const first = sextet(text.charCodeAt(4 * group + shift));
  const second = sextet(text.charCodeAt(4 * group + shift + 1));
  return ((first << (2 * shift + 2)) | (second >> (4 - 2 * shift))) & 0xff;
}

/** Whether the DER INTEGER at `at` of a signature `length` bytes long is minimal and positive, of 1 to 33 bytes. */
function isIntegerAt(text: string, length: number, at: number): boolean {
  const size = byteAt(text, at + 1);
  if (byteAt(text, at) !== 0x02 || size === 0 || size > 33 || at + 2 + size > length) return false;
  const first = byteAt(text, at + 2);
  if (first & 0x80 || (size === 33 && first !== 0)) return false;
  return first !== 0 || (size > 1 && (byteAt(text, at + 3) & 0x80) !== 0);
}

/**
 * Whether `text` is canonical padded base64 (as every encoder writes it, at most 96 characters) of a strictly encoded
 * DER ECDSA signature: what `derToP1363` accepts. Read from the characters that hold the bytes the DER rules look
 * at, with nothing decoded or allocated.
 */
export function isBase64DerSignature(text: string): boolean {
  const size = text.length;
  if (size === 0 || size > 96 || size % 4 !== 0 || !BASE64_TEXT.test(text)) return false;
  const padding = text.charCodeAt(size - 1) !== 61 ? 0 : text.charCodeAt(size - 2) !== 61 ? 1 : 2;
  // The last character's bits past the bytes are zero, as the encoder wrote them.
  const last = padding === 0 ? 0 : sextet(text.charCodeAt(size - 1 - padding));
  if (padding > 0 && (padding === 2 ? last & 15 : last & 3) !== 0) return false;
  const length = (size / 4) * 3 - padding;
  if (length < 8 || byteAt(text, 0) !== 0x30 || byteAt(text, 1) !== length - 2) return false;
  if (!isIntegerAt(text, length, 2)) return false;
  const rSize = byteAt(text, 3);
  return isIntegerAt(text, length, 4 + rSize) && 6 + rSize + byteAt(text, 5 + rSize) === length;
}

/** ECDSA P-256 with SHA-256: keys as `p256Spki` reads them, signatures as base64 DER. */
export const P256_DER_BASE64: PublicKeyFormat = {
  kind: "ecdsa-p256",
  spki: p256Spki,
  nodeHash: "sha256",
  webImport: { name: "ECDSA", namedCurve: "P-256" },
  webVerify: { name: "ECDSA", hash: "SHA-256" },
  nodeSignature: (text) => Buffer.from(text, "base64"),
  webSignature: (text) => derToP1363(base64ToBytes(text)),
  nodeKeys: new Map(),
  webKeys: new Map(),
};
