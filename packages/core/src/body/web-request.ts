import { WebhookVerificationError } from "../errors";
import { BodyWatch } from "./body-watch";
import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import {
  assertDeclaredWithinLimit,
  assertNotTruncated,
  type BodyLimits,
  bodyTruncated,
  payloadTooLarge,
} from "./limits";
import { isNodeFramedRequest, socketBytesRead } from "./node-framed-request";
import { readStreamWithin } from "./web-stream";

/**
 * What `readRequestBody` takes: the Receiver's body limits, and the fix to name when something read the body first.
 *
 * @example
 * ```ts
 * import { type ReadBodyOptions, readRequestBody } from "@tidings/core/adapter";
 *
 * // A route that reads a webhook's bytes itself: 64 KiB within 5 s, decoded, or a WebhookVerificationError.
 * const options: ReadBodyOptions = {
 *   maxBodyBytes: 64 * 1024,
 *   bodyTimeoutMs: 5000,
 *   consumedFix: "Read the request only through readRequestBody.",
 * };
 *
 * export const bytesOf = (request: Request): Promise<Uint8Array> => readRequestBody(request, options);
 * ```
 */
export interface ReadBodyOptions extends BodyLimits {
  /** How to mount the webhook handler in this framework so that nothing reads the body first. */
  consumedFix: string;
}

/**
 * The exact bytes of a Web `Request`'s body, bounded in size and time, with its Content-Encoding undone. Never calls
 * `text()`. Never reads more than one chunk past `maxBodyBytes`, whatever Content-Length says: a Request built by
 * code may understate its body.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { readRequestBody } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const consumedFix = "In SvelteKit, read nothing from the request before the webhook does.";
 *
 * // A SvelteKit endpoint (src/routes/webhooks/+server.ts), written against the Receiver directly.
 * export async function POST({ request }: { request: Request }): Promise<Response> {
 *   const result = await receiver.handle({
 *     method: request.method,
 *     headers: request.headers,
 *     readBody: (limits) => readRequestBody(request, { ...limits, consumedFix }),
 *   });
 *   return new Response(result.body, { status: result.status, headers: result.headers });
 * }
 * ```
 */
export function readRequestBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  return readWebBody(request, options, options.consumedFix);
}

/**
 * `readRequestBody` for `handleWebRequest`, with the Receiver's limits and the fix as two arguments: one object made of
 * both on each request costs V8 a new object shape per call. Not async: the bytes come in the read's own promise.
 */
export function readWebBody(request: Request, limits: BodyLimits, consumedFix: string): Promise<Uint8Array> {
  try {
    if (request.bodyUsed) throw bodyAlreadyConsumed(consumedFix);
    const { headers } = request;
    const codings = contentCodings(headers);
    const declared = assertDeclaredWithinLimit(headers, limits.maxBodyBytes);
    const raw =
      declared !== undefined && isNodeFramedRequest(request)
        ? readFramed(request, declared, limits, consumedFix)
        : readStream(request, declared, limits, consumedFix);
    return codings.length === 0 ? raw : raw.then((bytes) => decodeBody(bytes, codings, limits.maxBodyBytes));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A body Node's HTTP parser frames by its Content-Length (within the limit): read whole, under the body's time limits.
 * `arrayBuffer()` shows nothing until the end, so the rate is measured on the bytes its socket has read since.
 */
function readFramed(request: Request, declared: number, limits: BodyLimits, consumedFix: string) {
  const { maxBodyBytes } = limits;
  return new Promise<Uint8Array>((resolve, reject) => {
    const watch = new BodyWatch(limits, reject, undefined, socketBytesRead(request));
    request.arrayBuffer().then(
      (buffer) => {
        watch.clear();
        // Only a server that broke its own framing could send more; refused all the same.
        if (buffer.byteLength > maxBodyBytes) reject(payloadTooLarge(maxBodyBytes));
        else if (buffer.byteLength < declared) reject(bodyTruncated(buffer.byteLength, declared));
        else resolve(new Uint8Array(buffer));
      },
      (error: unknown) => {
        watch.clear();
        reject(consumedOrInterrupted(error, consumedFix));
      },
    );
  });
}

function readStream(request: Request, declared: number | undefined, limits: BodyLimits, consumedFix: string) {
  const { body } = request;
  if (body === null) return Promise.resolve(checked(new Uint8Array(0), declared));
  if (body.locked) throw bodyAlreadyConsumed(consumedFix);
  return readStreamWithin(body, limits).then((bytes) => checked(bytes, declared), interrupted);
}

function checked(bytes: Uint8Array, declared: number | undefined): Uint8Array {
  assertNotTruncated(bytes.byteLength, declared);
  return bytes;
}

/** A reader acquired without reading ("locked") makes `arrayBuffer()` throw "Body is unusable"; anything else broke mid-body. */
function consumedOrInterrupted(error: unknown, consumedFix: string): WebhookVerificationError {
  if (error instanceof TypeError && /unusable|locked|disturbed/i.test(error.message)) {
    return bodyAlreadyConsumed(consumedFix);
  }
  return interruption(error);
}

/** The body stream failed before its end: the client went away, or whatever produced the stream broke. */
function interruption(error: unknown): WebhookVerificationError {
  if (error instanceof WebhookVerificationError) return error;
  return new WebhookVerificationError("body_truncated", "The body stream failed before the body was complete.", {
    cause: error,
  });
}

function interrupted(error: unknown): never {
  throw interruption(error);
}
