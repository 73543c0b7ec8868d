/**
 * A string as it reads between the quotes of a JSON string: ordinary text unchanged; control characters (NUL among
 * them), lone surrogates, `"` and `\` escaped. What job data holds for text the sender chose (the event, its type, its
 * id within the delivery key, the endpoint label), so that every engine stores it as it is: PostgreSQL's `jsonb`
 * refuses `\u0000` and lone surrogates, and a client that writes UTF-8 turns each lone surrogate into U+FFFD.
 */
export function toJobText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The string {@link toJobText} stored; throws SyntaxError for anything it cannot have written. */
export function fromJobText(stored: string): string {
  return JSON.parse(`"${stored}"`) as string;
}

/** A high surrogate with no low one after it, or a low one with no high one before it. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether UTF-8 can encode the string as it is. A lone surrogate cannot: an encoder writes U+FFFD for it, so two
 * strings that differ only there encode to the same bytes (what a job id must never do).
 */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** For display: {@link fromJobText}, or the stored string as it is when it is not job text (an older job's). */
export function readableJobText(stored: string): string {
  try {
    return fromJobText(stored);
  } catch {
    return stored;
  }
}
