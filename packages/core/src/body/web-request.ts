import { WebhookVerificationError } from "../errors";
import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import { assertDeclaredWithinLimit, assertNotTruncated, type BodyLimits } from "./limits";
import { readStreamWithin } from "./web-stream";

export interface ReadBodyOptions extends BodyLimits {
  /** How to mount the webhook handler in this framework so that nothing reads the body first. */
  consumedFix: string;
}

/**
 * The exact bytes of a Web `Request`'s body, bounded in size and time, with its Content-Encoding undone. Never calls
 * `text()`, and never `arrayBuffer()`: a `Request`'s Content-Length may understate its body (only a Node server
 * frames the body by it), and `arrayBuffer()` would buffer all of it before the limit could be checked.
 */
export async function readRequestBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  const { body, headers } = request;
  if (request.bodyUsed || body?.locked) throw bodyAlreadyConsumed(options.consumedFix);
  const codings = contentCodings(headers);
  const declared = assertDeclaredWithinLimit(headers, options.maxBodyBytes);
  const raw = body === null ? new Uint8Array(0) : await readStreamWithin(body, options).catch(interrupted);
  assertNotTruncated(raw.byteLength, declared);
  return codings.length === 0 ? raw : decodeBody(raw, codings, options.maxBodyBytes);
}

/** The body stream failed before its end: the client went away, or whatever produced the stream broke. */
function interrupted(error: unknown): never {
  if (error instanceof WebhookVerificationError) throw error;
  throw new WebhookVerificationError("body_truncated", "The body stream failed before the body was complete.", {
    cause: error,
  });
}
