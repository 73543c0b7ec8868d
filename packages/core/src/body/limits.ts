import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";

/** Default largest body a Receiver accepts, after decoding: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default time a client gets to send the whole body: 10 s, far more than a 1 MiB delivery needs. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** How much body a Receiver reads, and for how long, before refusing (413, 408). */
export interface BodyLimits {
  maxBodyBytes: number;
  /** Default `DEFAULT_BODY_TIMEOUT_MS`. */
  bodyTimeoutMs?: number | undefined;
}

export function bodyTimedOut(bodyTimeoutMs: number): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_timeout",
    `The body did not arrive within ${bodyTimeoutMs} ms (bodyTimeoutMs in createReceiver()).`,
  );
}

export function payloadTooLarge(maxBodyBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    "payload_too_large",
    `The body is over the ${maxBodyBytes}-byte limit (maxBodyBytes in createReceiver()).`,
  );
}

/** The declared Content-Length, or undefined when absent or not a plain number (chunked bodies). */
export function declaredLength(headers: HeaderSource): number | undefined {
  const value = headerValue(headers, "content-length");
  return value === undefined ? undefined : plainLength(value);
}

/**
 * A string of 1 to 15 ASCII digits as a number, else undefined. A loop: a regular expression and `Number()` cost
 * several hundred instructions per request more.
 */
export function plainLength(value: string): number | undefined {
  if (value.length === 0 || value.length > 15) return undefined;
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    length = length * 10 + digit;
  }
  return length;
}

/** Refuses, before reading, a body that declares more bytes than the limit. */
export function assertDeclaredWithinLimit(headers: HeaderSource, maxBodyBytes: number): number | undefined {
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
  return declared;
}

export function bodyTruncated(received: number, declared: number): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_truncated",
    `Got ${received} of the ${declared} bytes Content-Length announced.`,
  );
}

export function assertNotTruncated(received: number, declared: number | undefined): void {
  if (declared !== undefined && received < declared) throw bodyTruncated(received, declared);
}

/** A body some other layer already read into bytes must still respect the Receiver's limit. */
export function withinLimit(bytes: Uint8Array, maxBodyBytes: number): Uint8Array {
  if (bytes.byteLength > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
  return bytes;
}

export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
