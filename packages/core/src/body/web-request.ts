import { WebhookVerificationError } from "../errors";
import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import { assertDeclaredWithinLimit, assertNotTruncated, type BodyLimits, withinLimit } from "./limits";
import { readStreamWithin, withinDeadline } from "./web-stream";

export interface ReadBodyOptions extends BodyLimits {
  /** How to mount the webhook handler in this framework so that nothing reads the body first. */
  consumedFix: string;
}

/** The exact bytes of a Web `Request`'s body, bounded in size and time, with its Content-Encoding undone. Never calls `text()`. */
export async function readRequestBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  if (request.bodyUsed) throw bodyAlreadyConsumed(options.consumedFix);
  const { headers } = request;
  const codings = contentCodings(headers);
  const declared = assertDeclaredWithinLimit(headers, options.maxBodyBytes);
  let raw: Uint8Array;
  if (declared === undefined) {
    const { body } = request;
    if (body?.locked) throw bodyAlreadyConsumed(options.consumedFix);
    raw = body === null ? new Uint8Array(0) : await readStreamWithin(body, options).catch(interrupted);
  } else {
    // Within the limit, an HTTP server delivers at most Content-Length bytes (Node, Bun, Deno and workerd frame the
    // body by it), so `arrayBuffer()` is bounded; and on Node servers that build their Request lazily
    // (@hono/node-server) it reads the socket directly, where touching `request.body` would first build a Web stream
    // around it, more than doubling the adapter's instructions per request. A Request built by code with a smaller
    // Content-Length than its body is still refused, after reading.
    const reading = request.arrayBuffer().catch((error: unknown) => consumedOrInterrupted(error, options.consumedFix));
    raw = withinLimit(new Uint8Array(await withinDeadline(reading, options)), options.maxBodyBytes);
  }
  assertNotTruncated(raw.byteLength, declared);
  return codings.length === 0 ? raw : decodeBody(raw, codings, options.maxBodyBytes);
}

/** A reader acquired without reading ("locked") makes `arrayBuffer()` throw "Body is unusable"; anything else broke mid-body. */
function consumedOrInterrupted(error: unknown, consumedFix: string): never {
  if (error instanceof TypeError && /unusable|locked|disturbed/i.test(error.message)) {
    throw bodyAlreadyConsumed(consumedFix);
  }
  return interrupted(error);
}

/** The body stream failed before its end: the client went away, or whatever produced the stream broke. */
function interrupted(error: unknown): never {
  if (error instanceof WebhookVerificationError) throw error;
  throw new WebhookVerificationError("body_truncated", "The body stream failed before the body was complete.", {
    cause: error,
  });
}
