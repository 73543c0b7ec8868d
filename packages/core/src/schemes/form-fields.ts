import type { DeliveryEvent } from "../event";
import { type HeaderSource, headerValue } from "../http/headers";

// Non-fatal, as for JSON bodies: an invalid byte in a field reads as U+FFFD.
const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * An `application/x-www-form-urlencoded` body's fields, in the order sent, each name with its values in order (a name
 * sent twice has two). `+` is a space and `%XX` escapes are decoded as UTF-8, as every form parser reads them; a `%`
 * not followed by two hex digits stays as it is.
 */
export function formFields(body: Uint8Array | string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const [name, value] of formPairs(body)) {
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

/**
 * The form's fields in the order sent, as `URLSearchParams` reads them (see `formFields`), without it where it can:
 * the text split at each `&` (empty parts skipped), each part at its first `=`, each side with a `%` decoded by
 * `decodeURIComponent` once `+` is a space. Where it refuses a side (a `%` without two hex digits, escapes that are no
 * UTF-8: what `URLSearchParams` keeps as sent or writes U+FFFD for), and for text with a lone surrogate, the whole form
 * is read by `URLSearchParams`, at most once more.
 */
export function formPairs(body: Uint8Array | string): [string, string][] {
  const text = typeof body === "string" ? body : decoder.decode(body);
  try {
    if (text.isWellFormed()) {
      const pairs: [string, string][] = [];
      for (const part of text.split("&")) {
        const equals = part.indexOf("=");
        if (part)
          pairs.push(
            equals === -1 ? [decoded(part), ""] : [decoded(part.slice(0, equals)), decoded(part.slice(equals + 1))],
          );
      }
      return pairs;
    }
  } catch {}
  return paramsPairs(text);
}

function decoded(raw: string): string {
  const spaced = raw.includes("+") ? raw.replaceAll("+", " ") : raw;
  return spaced.includes("%") ? decodeURIComponent(spaced) : spaced;
}

/** The form's fields read by `URLSearchParams` (see `formPairs`). */
// URLSearchParams drops one leading `?`, which a form body keeps as part of its first name.
export const paramsPairs = (text: string): [string, string][] => [
  ...new URLSearchParams(text.startsWith("?") ? `&${text}` : text),
];

/** By name, then value, by UTF-16 code units (as JavaScript's `sort`). */
const compare = ([name, value]: [string, string], [other, otherValue]: [string, string]) =>
  name < other ? -1 : name > other ? 1 : value < otherValue ? -1 : value > otherValue ? 1 : 0;

/**
 * What a sender that signs a form's fields signs of them: the fields sorted by name (by UTF-16 code units, as
 * JavaScript's `sort`), a repeated name's values sorted too (each value once, with `distinct`), each field written
 * name + `between` + value, joined by `separator`. Undefined when the form has no field.
 */
export function sortedForm(
  body: Uint8Array | string,
  between: string,
  separator: string,
  distinct: boolean,
): string | undefined {
  const pairs = formPairs(body).sort(compare);
  let text: string | undefined;
  let last: [string, string] | undefined;
  for (const pair of pairs) {
    if (distinct && last && compare(last, pair) === 0) continue;
    text = (text === undefined ? "" : text + separator) + pair[0] + between + pair[1];
    last = pair;
  }
  return text;
}

/**
 * The fields as the event handlers get: each name's value, or its values (an array) when it was sent more than once.
 * No prototype, so that a field named `__proto__` or `constructor` is a field like any other.
 */
export function formEvent(fields: Map<string, string[]>): DeliveryEvent {
  const event: Record<string, string | string[]> = Object.create(null);
  for (const [name, values] of fields) event[name] = values.length === 1 ? (values[0] as string) : values;
  return event;
}

/** Whether the request says its body is a form (`Content-Type: application/x-www-form-urlencoded`). */
export function isFormBody(headers: HeaderSource): boolean {
  return /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(headerValue(headers, "content-type") ?? "");
}

/** Whether the request says its body is JSON (`application/json`, or a `+json` type). */
export function isJsonBody(headers: HeaderSource): boolean {
  return /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(headerValue(headers, "content-type") ?? "");
}
