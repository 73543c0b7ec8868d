// A lone surrogate, NUL (PostgreSQL text cannot hold it) or a backslash (the escape itself).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what must be found.
const UNSAFE = /[\\\u0000]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A key as PostgreSQL text can hold it. node-postgres and PGlite send strings as UTF-8, which makes every lone
 * surrogate U+FFFD (`evt_\uD800` and `evt_\uDFFF` would be one key), and text cannot hold NUL at all. Those, and the
 * backslash, are written `\uXXXX`; every backslash in the result starts an escape, so every two different strings stay
 * two different keys, and ordinary keys are stored as they are.
 */
export function textKey(key: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(key) ? key.replace(UNSAFE, escaped) : key;
}

const escaped = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
