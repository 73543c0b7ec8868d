// A JSON string token, or a number token (outside strings, a digit or `-` starts nothing else).
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * The exact text of the number `JSON.parse` gave the top-level member `name` of this JSON object, for what a double
 * cannot hold (64-bit ids), which the parsed number has already rounded: the body parsed again with every number
 * quoted, so duplicate keys, escaped keys and nesting resolve exactly as they did. Only for a body `JSON.parse`
 * accepted as an object whose member `name` it read as a number.
 */
export function numberSource(bytes: Uint8Array, name: string): string | undefined {
  const quoted = decoder.decode(bytes).replace(TOKEN, (token) => (token[0] === '"' ? token : `"${token}"`));
  return (JSON.parse(quoted) as Record<string, string | undefined>)[name];
}
