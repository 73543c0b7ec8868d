import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import { assertDeclaredWithinLimit, assertNotTruncated, withinLimit } from "./limits";
import { readStreamWithin } from "./web-stream";

export interface ReadBodyOptions {
  maxBodyBytes: number;
  /** How to mount the webhook handler in this framework so that nothing reads the body first. */
  consumedFix: string;
}

/** The exact bytes of a Web `Request`'s body, bounded, with its Content-Encoding undone. Never calls `text()`. */
export async function readRequestBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  if (request.bodyUsed) throw bodyAlreadyConsumed(options.consumedFix);
  const { headers } = request;
  const codings = contentCodings(headers);
  const declared = assertDeclaredWithinLimit(headers, options.maxBodyBytes);
  let raw: Uint8Array;
  if (declared === undefined) {
    raw = await readUndeclared(request, options);
  } else {
    // Within the limit, the HTTP layer delivers at most Content-Length bytes, so `arrayBuffer()` is safe; and on
    // Node servers that build their Request lazily (@hono/node-server) it reads the socket directly, where
    // touching `request.body` would first build a full Web stream around it. Inline rather than in a function of
    // its own: each async function between the bytes and the Receiver costs a turn and a `then` lookup.
    try {
      raw = withinLimit(new Uint8Array(await request.arrayBuffer()), options.maxBodyBytes);
    } catch (error) {
      // A reader acquired without reading ("locked") makes arrayBuffer() throw "Body is unusable".
      if (error instanceof TypeError && /unusable|locked|disturbed/i.test(error.message)) {
        throw bodyAlreadyConsumed(options.consumedFix);
      }
      throw error;
    }
  }
  assertNotTruncated(raw.byteLength, declared);
  return codings.length === 0 ? raw : decodeBody(raw, codings, options.maxBodyBytes);
}

/** No Content-Length (chunked): read the stream and stop as soon as it passes the limit. */
async function readUndeclared(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  if (request.body.locked) throw bodyAlreadyConsumed(options.consumedFix);
  return readStreamWithin(request.body, options.maxBodyBytes);
}
