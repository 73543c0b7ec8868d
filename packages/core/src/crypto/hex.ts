/** A hex digit's value: `0`–`9` are 48–57, `a`–`f` 97–102 and `A`–`F` 65–70 (lowercased by `| 32`). */
const nibble = (code: number) => (code < 58 ? code - 48 : (code | 32) - 87);

/**
 * Decodes hex that the header parser already validated (even length, [0-9a-fA-F] only), by character codes: a
 * `parseInt` and a substring per byte cost a public-key check at 256 B more than its header's parsing.
 */
export function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  }
  return bytes;
}
