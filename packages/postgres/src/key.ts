import { createHash } from "node:crypto";

// A lone surrogate, NUL (PostgreSQL text cannot hold it) or a backslash (the escape itself).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what must be found.
const UNSAFE = /[\\\u0000]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The longest key, in UTF-8 bytes, stored as it is. A btree entry holds at most about 2,700 bytes: a longer key would
 * fail every claim of its delivery, so the sender would retry it forever. Past this, a key is stored as a digest.
 */
export const LONGEST_PLAIN_KEY = 2000;
// Every backslash in an escaped key starts `\u`, so no key stored as it is begins with this.
const DIGESTED = "\\sha256:";

/**
 * A key as PostgreSQL can hold and index it. node-postgres and PGlite send strings as UTF-8, which makes every lone
 * surrogate U+FFFD (`evt_\uD800` and `evt_\uDFFF` would be one key), and text cannot hold NUL at all. Those, and the
 * backslash, are written `\uXXXX`; every backslash in the result starts an escape, so every two different strings stay
 * two different keys, and ordinary keys are stored as they are. A key longer than `LONGEST_PLAIN_KEY` bytes after
 * that is stored as `\sha256:` and the hex SHA-256 of its escaped form: 72 characters whatever its length, and never
 * equal to a key stored as it is.
 */
export function textKey(key: string): string {
  UNSAFE.lastIndex = 0;
  const text = UNSAFE.test(key) ? key.replace(UNSAFE, escaped) : key;
  if (text.length * 3 <= LONGEST_PLAIN_KEY || Buffer.byteLength(text) <= LONGEST_PLAIN_KEY) return text;
  return DIGESTED + createHash("sha256").update(text).digest("hex");
}

const escaped = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
