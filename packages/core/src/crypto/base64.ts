import { nodeBuiltin } from "../ground/runtime";
import { hexToBytes } from "./hex";

/** Decodes base64 that a header parser already validated (standard alphabet, padded). Any runtime: `atob`. */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encodes bytes as padded standard base64. Any runtime: `btoa`. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number);
  return btoa(binary);
}

type NodeBuffer = typeof import("node:buffer").Buffer;
let nodeBuffer: NodeBuffer | null | undefined;

/** node:buffer's Buffer where the runtime has it; looked up once. */
function findBuffer(): NodeBuffer | undefined {
  if (nodeBuffer === undefined) nodeBuffer = nodeBuiltin<typeof import("node:buffer")>("node:buffer")?.Buffer ?? null;
  return nodeBuffer ?? undefined;
}

// Canonical unpadded base64url: the last character's unused low bits zero (as every encoder writes it), so that one
// value has one spelling.
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const LAST_OF_TWO = /[AQgw]$/;
const LAST_OF_THREE = /[AEIMQUYcgkosw048]$/;

/** Canonical, unpadded base64url (as JWTs write their parts). */
export function isBase64Url(text: string): boolean {
  const tail = text.length % 4;
  return (
    text.length > 0 &&
    tail !== 1 &&
    BASE64URL.test(text) &&
    (tail === 0 || (tail === 2 ? LAST_OF_TWO : LAST_OF_THREE).test(text))
  );
}

/** Canonical unpadded base64url as padded standard base64, which every runtime decodes. */
export function base64UrlToBase64(text: string): string {
  const standard = text.replaceAll("-", "+").replaceAll("_", "/");
  return text.length % 4 === 0 ? standard : standard + "=".repeat(4 - (text.length % 4));
}

/**
 * The bytes of canonical, unpadded base64url; undefined for any other text. With node:buffer, decoded natively and
 * checked by encoding the bytes again (a text is canonical base64url exactly when it is what its bytes encode to),
 * which costs a JWT a fraction of the pattern tests and the decoding in JavaScript that any runtime falls back to.
 */
export function base64UrlBytes(text: string): Uint8Array | undefined {
  const Buffer = findBuffer();
  if (Buffer) {
    const bytes = Buffer.from(text, "base64url");
    return text.length > 0 && bytes.toString("base64url") === text ? bytes : undefined;
  }
  return isBase64Url(text) ? base64ToBytes(base64UrlToBase64(text)) : undefined;
}

/** The bytes of base64url already checked well-formed (padded or not): natively where node:buffer is. */
export function checkedBase64UrlBytes(text: string): Uint8Array {
  const Buffer = findBuffer();
  return Buffer ? Buffer.from(text, "base64url") : base64ToBytes(base64UrlToBase64(text));
}

/** The bytes of hex already checked well-formed (either case): natively where node:buffer is. */
export function checkedHexBytes(text: string): Uint8Array {
  const Buffer = findBuffer();
  return Buffer ? Buffer.from(text, "hex") : hexToBytes(text);
}

/** The padded standard base64 of canonical, unpadded base64url; undefined for any other text. */
export function base64UrlAsBase64(text: string): string | undefined {
  const Buffer = findBuffer();
  if (Buffer) {
    const bytes = Buffer.from(text, "base64url");
    return text.length > 0 && bytes.toString("base64url") === text ? bytes.toString("base64") : undefined;
  }
  return isBase64Url(text) ? base64UrlToBase64(text) : undefined;
}
