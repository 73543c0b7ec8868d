/**
 * Characters a terminal acts on instead of printing: C0 controls, DEL and C1 controls (`\x1b`, `\x9b` start escape
 * sequences), and the invisible direction overrides and line separators that make printed text read differently.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, less C0: JSON.stringify escapes those inside strings, and the only ones it leaves are its own newlines. */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (char: string, digits: number) => char.charCodeAt(0).toString(16).padStart(digits, "0");

/** Text from a queue or a receiver, safe to print: each unprintable character becomes `\x1b`, `\u202e`, … */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => (char <= "\u00ff" ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`));
}

/** JSON for a terminal: JSON.stringify escapes C0 controls, and this also DEL, C1 and the characters above. */
export function printableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNPRINTABLE_IN_JSON, (char) => `\\u${hex(char, 4)}`);
}
