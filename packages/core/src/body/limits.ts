import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";

/** Default largest body a Receiver accepts, after decoding: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default time a client gets to send the whole body: 10 s, far more than a 1 MiB delivery needs. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * How much body a Receiver reads, and for how long, before refusing (413, 408).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { BodyLimits } from "@tidings/core/adapter";
 * import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
 * import express from "express";
 *
 * // A framework's own body reader, held to the Receiver's limits.
 * const rawBody = ({ maxBodyBytes }: BodyLimits) => express.raw({ type: () => true, limit: maxBodyBytes });
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const app = express();
 * app.post("/webhooks", rawBody(receiver.bodyLimits), async (req, res) => {
 *   const decodedBody = req.body as Buffer | undefined; // what express.raw() read, if the request had a body
 *   const result = await handleNodeRequest(receiver, req, { consumedFix: "Use express.raw().", decodedBody });
 *   writeNodeResponse(res, result);
 * });
 * ```
 */
export interface BodyLimits {
  maxBodyBytes: number;
  /** Default `DEFAULT_BODY_TIMEOUT_MS`. */
  bodyTimeoutMs?: number | undefined;
  /** The slowest average a body may arrive at once `bodyRateGraceMs` passed, bytes per second; 0: no check. Default 240. */
  minBodyBytesPerSecond?: number | undefined;
  /** How long a body may arrive slower than `minBodyBytesPerSecond`, ms; then checked again every as long. Default 5 s. */
  bodyRateGraceMs?: number | undefined;
}

export function bodyTimedOut(bodyTimeoutMs: number): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_timeout",
    `The body did not arrive within ${bodyTimeoutMs} ms (bodyTimeoutMs in createReceiver()).`,
  );
}

/**
 * The `payload_too_large` error (413) for a body over `maxBodyBytes`, worded as the Receiver words it.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { payloadTooLarge } from "@tidings/core/adapter";
 * import express, { type ErrorRequestHandler } from "express";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // express.raw() stopped at the limit before the Receiver saw the request: answer as the Receiver would, 413.
 * const tooLarge: ErrorRequestHandler = (error, _req, res, next) => {
 *   if (error?.type !== "entity.too.large") return next(error);
 *   const refused = payloadTooLarge(receiver.maxBodyBytes);
 *   res.status(refused.status).json({ error: { code: refused.code, message: refused.message } });
 * };
 *
 * const app = express();
 * app.post("/webhooks", express.raw({ type: () => true, limit: receiver.maxBodyBytes }), (_req, res) => res.end());
 * app.use(tooLarge);
 * ```
 */
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

/**
 * The `body_truncated` error (400) for a body that ended before the bytes its `Content-Length` announced.
 *
 * @example
 * ```ts
 * import { bodyTruncated } from "@tidings/core/adapter";
 *
 * // A platform hands over the body whole: fewer bytes than Content-Length announced is 400 body_truncated.
 * export function checkedBody(bytes: Uint8Array, headers: Record<string, string | undefined>): Uint8Array {
 *   const declared = Number(headers["content-length"] ?? Number.NaN);
 *   const received = bytes.byteLength;
 *   if (Number.isSafeInteger(declared) && received < declared) throw bodyTruncated(received, declared);
 *   return bytes;
 * }
 * ```
 */
export function bodyTruncated(received: number, declared: number): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_truncated",
    `Got ${received} of the ${declared} bytes Content-Length announced.`,
  );
}

export function assertNotTruncated(received: number, declared: number | undefined): void {
  if (declared !== undefined && received < declared) throw bodyTruncated(received, declared);
}

/**
 * A body some other layer already read into bytes must still respect the Receiver's limit.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { withinLimit } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // Bytes a framework's body parser already read (Content-Encoding undone): still refused over maxBodyBytes (413).
 * export function handleBuffered(method: string, headers: Record<string, string | undefined>, body: Uint8Array) {
 *   return receiver.handle({ method, headers, readBody: ({ maxBodyBytes }) => withinLimit(body, maxBodyBytes) });
 * }
 * ```
 */
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
