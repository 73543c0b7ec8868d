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
  for (const [name, value] of formParams(body)) {
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

/** The form's fields as `URLSearchParams`, in the order sent (see `formFields`). */
function formParams(body: Uint8Array | string): URLSearchParams {
  const text = typeof body === "string" ? body : decoder.decode(body);
  // URLSearchParams drops one leading `?`, which a form body keeps as part of its first name.
  return new URLSearchParams(text.startsWith("?") ? `&${text}` : text);
}

/**
 * What a sender that signs a form's fields signs of them: the fields sorted by name (by UTF-16 code units, as
 * JavaScript's `sort`), a repeated name's values sorted too (only its distinct values, with `distinct`), each field
 * written by `pair`. Sorted in place by `URLSearchParams`, with no map of the fields.
 */
export function sortedFormPairs(
  body: Uint8Array | string,
  pair: (name: string, value: string) => string,
  distinct: boolean,
): string[] {
  const params = formParams(body);
  params.sort();
  const parts: string[] = [];
  let name: string | undefined;
  let values: string[] = [];
  const flush = () => {
    if (values.length > 1) values = distinct ? [...new Set(values)].sort() : values.sort();
    for (const value of values) parts.push(pair(name as string, value));
  };
  for (const [field, value] of params) {
    if (field !== name) {
      flush();
      name = field;
      values = [];
    }
    values.push(value);
  }
  flush();
  return parts;
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

/** The names in the order senders sort them when they sign a form: by UTF-16 code units, as JavaScript's `sort`. */
export const sortedNames = (fields: Map<string, string[]>): string[] => [...fields.keys()].sort();
