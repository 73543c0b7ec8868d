import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";
import { MAX_SIGNATURE_HEADER_LENGTH } from "../verification/constants";
import { isTimestampText } from "../verification/formats";

/**
 * The error for a header that is there but cannot be read (400 `malformed_header`), naming the rule it breaks.
 *
 * @example
 * ```ts
 * import { malformed } from "@tidings/core/schemes";
 *
 * // In a scheme's `read`: a timestamp header that is not a number of seconds.
 * export function seconds(text: string): number {
 *   if (!/^\d{1,15}$/.test(text)) throw malformed("X-Acme-Timestamp", "not 1 to 15 digits");
 *   return Number(text);
 * }
 * ```
 */
export function malformed(header: string, rule: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", `Malformed ${header} header: ${rule}.`);
}

/**
 * The error for a signature header that holds no signature this scheme can check (400 `no_supported_signature`), such
 * as only an algorithm it does not know.
 *
 * @example
 * ```ts
 * import { noSignature } from "@tidings/core/schemes";
 *
 * // In a scheme's `read`: `X-Acme-Signature: sha256=<hex>` is the only form Acme sends.
 * export function hexOf(value: string): string {
 *   if (!value.startsWith("sha256=")) throw noSignature("X-Acme-Signature", "sha256=<hex>");
 *   return value.slice(7);
 * }
 * ```
 */
export function noSignature(header: string, what: string): WebhookVerificationError {
  return new WebhookVerificationError("no_supported_signature", `The ${header} header has no ${what}.`);
}

/**
 * A header the scheme needs, trimmed: `missing_header` when absent or blank, `malformed_header` past 8 KiB (before any
 * other work). `name` is lower-case; `display` is how the sender spells it, for the message.
 *
 * @example
 * ```ts
 * import { requiredHeader } from "@tidings/core/schemes";
 *
 * // Works with a Fetch `Headers`, a Node headers object, or a plain record.
 * const signature = requiredHeader(new Headers({ "X-Acme-Signature": "sha256=00" }), "x-acme-signature", "X-Acme-Signature");
 * console.log(signature); // "sha256=00"
 * ```
 */
export function requiredHeader(headers: HeaderSource, name: string, display: string): string {
  return requiredValue(headerValue(headers, name), display);
}

/** Printable ASCII other than the space: never trimmed. */
const isVisibleAscii = (code: number) => code > 32 && code < 127;

/** A header's value, trimmed: it must be there, not blank, and not over the length any signature header may have. */
export function requiredValue(value: string | undefined, display: string): string {
  // Senders write no padding: `trim` (a third of a header's cost to us) runs only when an end might need it.
  const text =
    value && isVisibleAscii(value.charCodeAt(0)) && isVisibleAscii(value.charCodeAt(value.length - 1))
      ? value
      : value?.trim();
  if (!text) throw new WebhookVerificationError("missing_header", `No ${display} header.`);
  if ((value as string).length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw malformed(display, `it is longer than ${MAX_SIGNATURE_HEADER_LENGTH} characters`);
  }
  return text;
}

/**
 * The seconds a timestamp header's text (1 to 15 digits) says; `malformed_header` otherwise.
 *
 * @example
 * ```ts
 * import { timestampOf } from "@tidings/core/schemes";
 *
 * console.log(timestampOf("1764324000", "X-Acme-Timestamp")); // 1764324000
 * ```
 */
export function timestampOf(text: string, display: string): number {
  if (!isTimestampText(text)) throw malformed(display, "not 1 to 15 digits");
  return Number(text);
}

/** The longest event type a header may name: a sender's names are tens of characters, and the type keys dedup. */
export const MAX_TYPE_HEADER_LENGTH = 256;

/**
 * A header naming the event's type (`X-GitHub-Event`, `X-Shopify-Topic`), trimmed: `missing_header` when absent or
 * blank, `malformed_header` past 256 characters.
 */
export function typeHeader(headers: HeaderSource, name: string, display: string): string {
  const value = requiredHeader(headers, name, display);
  if (value.length > MAX_TYPE_HEADER_LENGTH) {
    throw malformed(display, `it is longer than ${MAX_TYPE_HEADER_LENGTH} characters`);
  }
  return value;
}
