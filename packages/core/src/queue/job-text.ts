/**
 * A string as it reads between the quotes of a JSON string: ordinary text unchanged; control characters (NUL among
 * them), lone surrogates, `"` and `\` escaped. What job data holds for text the sender chose (the event, its type, its
 * id within the delivery key, the endpoint label), so that every engine stores it as it is: PostgreSQL's `jsonb`
 * refuses `\u0000` and lone surrogates, and a client that writes UTF-8 turns each lone surrogate into U+FFFD.
 *
 * @example
 * ```ts
 * import { toJobText } from "@tidings/core/dispatch";
 *
 * toJobText("message.sent"); // "message.sent": ordinary text unchanged
 * toJobText('say "hi"\n'); // 'say \\"hi\\"\\n'
 * toJobText("\uD800"); // "\\ud800": a lone surrogate, kept as six ASCII characters
 * ```
 */
export function toJobText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The string {@link toJobText} stored; throws SyntaxError for anything it cannot have written.
 *
 * @example
 * ```ts
 * import { fromJobText, toJobText } from "@tidings/core/dispatch";
 *
 * const key = "event:evt_\uD800"; // an id with a lone surrogate, as JSON may send one
 * fromJobText(toJobText(key)) === key; // true
 * ```
 */
export function fromJobText(stored: string): string {
  return JSON.parse(`"${stored}"`) as string;
}

/**
 * A high surrogate with no low one after it, or a low one with no high one before it.
 *
 * @example
 * ```ts
 * import { LONE_SURROGATE } from "@tidings/core/dispatch";
 *
 * // A job id UTF-8 can carry: each lone surrogate written as %uXXXX.
 * const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");
 * export const jobIdFor = (deliveryKey: string) =>
 *   deliveryKey.replace(LONE_SURROGATES, (unit) => `%u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
 * ```
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether UTF-8 can encode the string as it is. A lone surrogate cannot: an encoder writes U+FFFD for it, so two
 * strings that differ only there encode to the same bytes (what a job id must never do).
 *
 * @example
 * ```ts
 * import { isWellFormedText } from "@tidings/core/dispatch";
 *
 * isWellFormedText("event:evt_1"); // true
 * isWellFormedText("event:\uD83D\uDE00"); // true: a whole pair
 * isWellFormedText("event:\uD83D"); // false: UTF-8 would write it as U+FFFD
 * ```
 */
export function isWellFormedText(text: string): boolean {
  return text.isWellFormed();
}

/**
 * Whether every engine stores the string as it is: PostgreSQL's `jsonb` refuses NUL and lone surrogates.
 *
 * @example
 * ```ts fragment
 * isStorableText("caf\u00e9 \uD83D\uDE00"); // true
 * isStorableText("a\u0000b"); // false
 * isStorableText("\uD83D"); // false
 * ```
 */
export function isStorableText(text: string): boolean {
  return isWellFormedText(text) && !text.includes("\0");
}

/**
 * Whether every string in a JSON value, keys included, is {@link isStorableText}. A value with a `toJSON` is not
 * looked into (its JSON may hold anything), so it counts as not storable.
 *
 * @example
 * ```ts fragment
 * holdsOnlyStorableText({ id: "evt_1", data: { tags: ["a", "b"] } }); // true
 * holdsOnlyStorableText({ data: { "\uDC00": 1 } }); // false: a lone surrogate in a key
 * ```
 */
export function holdsOnlyStorableText(value: unknown): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (typeof value !== "object" || value === null) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) return value.every(holdsOnlyStorableText);
  for (const key in value) {
    if (!isStorableText(key) || !holdsOnlyStorableText((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * For display, a string of a job's data: {@link fromJobText} of it when the job holds its event as text (so its strings
 * are job text), else the string as stored. Never throws: a string that is not job text after all is shown as stored.
 *
 * @example
 * ```ts
 * import { readableJobText } from "@tidings/core/dispatch";
 *
 * // For a list of failed jobs: the delivery key as logs showed it.
 * export const keyOf = (data: { event: unknown; deliveryKey: string }) =>
 *   readableJobText(data.deliveryKey, typeof data.event === "string");
 *
 * keyOf({ event: "{}", deliveryKey: "event:say \\\"hi\\\"" }); // 'event:say "hi"'
 * keyOf({ event: {}, deliveryKey: "event:a\\nb" }); // "event:a\\nb": held as it is
 * ```
 */
export function readableJobText(stored: string, escaped: boolean): string {
  if (!escaped) return stored;
  try {
    return fromJobText(stored);
  } catch {
    return stored;
  }
}
