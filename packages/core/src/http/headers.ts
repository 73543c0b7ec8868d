import { WebhookVerificationError } from "../errors";

/**
 * Request headers as Web `Headers`, or as Node's lower-cased `IncomingHttpHeaders`-like record.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { HeaderSource } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // Web `Headers` and Node's header record alike.
 * export function receiveBytes(rawBody: Uint8Array, headers: HeaderSource) {
 *   return receiver.receive({ rawBody, headers });
 * }
 *
 * await receiveBytes(new Uint8Array(), new Headers({ "service-signature": "t=1,v1=00" }));
 * await receiveBytes(new Uint8Array(), { "service-signature": "t=1,v1=00" });
 * ```
 */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A header's value (repeated headers joined with ", "), or undefined. `name` must be lower-case.
 *
 * @example
 * ```ts
 * import { headerValue } from "@tidings/core/adapter";
 *
 * headerValue(new Headers({ "X-Request-Id": "abc" }), "x-request-id"); // "abc"
 * headerValue({ "x-forwarded-for": ["10.0.0.1", "10.0.0.2"] }, "x-forwarded-for"); // "10.0.0.1, 10.0.0.2"
 * headerValue({}, "x-request-id"); // undefined
 * ```
 */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers?.get === "function") {
    return textOf((headers as { get(name: string): unknown }).get(name), name);
  }
  if (headers === null || typeof headers !== "object") {
    throw new WebhookVerificationError("missing_header", "No headers: expected Headers or a record of header values.");
  }
  return textOf((headers as Readonly<Record<string, unknown>>)[name], name);
}

/** A header's value as text; what is neither text nor a list of texts (a number, a nested list) is malformed. */
function textOf(value: unknown, name: string): string | undefined {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
  throw new WebhookVerificationError("malformed_header", `The ${name} header's value is not text.`);
}
