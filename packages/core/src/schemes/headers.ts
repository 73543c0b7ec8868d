import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";
import { MAX_SIGNATURE_HEADER_LENGTH } from "../verification/constants";

export const TIMESTAMP = /^[0-9]{1,15}$/;
export const HEX_SHA256 = /^[0-9a-f]{64}$/;
export const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

export function malformed(header: string, rule: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", `Malformed ${header} header: ${rule}.`);
}

export function noSignature(header: string, what: string): WebhookVerificationError {
  return new WebhookVerificationError("no_supported_signature", `The ${header} header has no ${what}.`);
}

/**
 * A header the scheme needs: `missing_header` when absent or blank, `malformed_header` past 8 KiB (before any other
 * work). `name` is lower-case; `display` is how the sender spells it, for the message.
 */
export function requiredHeader(headers: HeaderSource, name: string, display: string): string {
  const value = headerValue(headers, name);
  if (value === undefined || value.trim() === "") {
    throw new WebhookVerificationError("missing_header", `No ${display} header.`);
  }
  if (value.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw malformed(display, `it is longer than ${MAX_SIGNATURE_HEADER_LENGTH} characters`);
  }
  return value;
}

/** A Unix-seconds header (1 to 15 digits), as its text: the digits the sender signed. */
export function timestampHeader(headers: HeaderSource, name: string, display: string): string {
  const text = requiredHeader(headers, name, display).trim();
  if (!TIMESTAMP.test(text)) throw malformed(display, "not 1 to 15 digits");
  return text;
}

/** An optional header's value, trimmed; undefined when absent or blank. */
export function optionalHeader(headers: HeaderSource, name: string): string | undefined {
  const value = headerValue(headers, name)?.trim();
  return value === "" ? undefined : value;
}
