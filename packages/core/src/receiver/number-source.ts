// Byte values of the JSON structure; a UTF-8 multi-byte sequence never contains one, so bytes can be scanned as is.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const decoder = /* @__PURE__ */ new TextDecoder();

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** From an opening quote to just past its closing quote. */
function skipString(bytes: Uint8Array, at: number): number {
  for (let i = at + 1; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i + 1;
  }
  return bytes.length;
}

/** From a value's first byte to just past it: a string, an object or array (nested ones too), or a literal. */
function skipValue(bytes: Uint8Array, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return skipString(bytes, at);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let i = at;
    for (let byte = bytes[i]; i < bytes.length; byte = bytes[++i]) {
      if (isSpace(byte) || byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) break;
    }
    return i;
  }
  let depth = 0;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) i = skipString(bytes, i) - 1;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  return bytes.length;
}

/** Whether the key token (quotes included) names `name`, escapes undone as `JSON.parse` undoes them. */
function keyIs(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  const length = end - start - 2;
  let escaped = false;
  for (let i = start + 1; i < end - 1; i++) escaped ||= bytes[i] === BACKSLASH;
  if (escaped) return JSON.parse(decoder.decode(bytes.subarray(start, end))) === name;
  if (length !== name.length) return false;
  for (let i = 0; i < length; i++) if (bytes[start + 1 + i] !== name.charCodeAt(i)) return false;
  return true;
}

/**
 * The exact text of the number that `JSON.parse` gave the top-level member `name` of this JSON object: the last such
 * member, as `JSON.parse` keeps the last of duplicate keys. For what a double cannot hold (64-bit ids), which the
 * parsed number has already rounded. `bytes` must be a JSON object `JSON.parse` accepted; undefined if the member's
 * value is not a number.
 */
export function numberSource(bytes: Uint8Array, name: string): string | undefined {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0; // a BOM, which the decoder drops
  at = skipSpace(bytes, at);
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  at = skipSpace(bytes, at + 1);
  let found: string | undefined;
  while (bytes[at] === QUOTE) {
    const keyEnd = skipString(bytes, at);
    const matches = keyIs(bytes, at, keyEnd, name);
    at = skipSpace(bytes, keyEnd);
    if (bytes[at] !== COLON) return undefined;
    const start = skipSpace(bytes, at + 1);
    const end = skipValue(bytes, start);
    if (matches) {
      const first = bytes[start];
      found = first === MINUS || isDigit(first) ? decoder.decode(bytes.subarray(start, end)) : undefined;
    }
    at = skipSpace(bytes, end);
    if (bytes[at] !== COMMA) break;
    at = skipSpace(bytes, at + 1);
  }
  return found;
}
