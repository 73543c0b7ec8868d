import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import { assertDeclaredWithinLimit, assertNotTruncated } from "./limits";
import { readStreamWithin } from "./web-stream";

export interface ReadBodyOptions {
  maxBodyBytes: number;
  /** How to mount the webhook handler in this framework so that nothing reads the body first. */
  consumedFix: string;
}

/** The exact bytes of a Web `Request`'s body, bounded, with its Content-Encoding undone. Never calls `text()`. */
export async function readRequestBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  // bodyUsed: read or cancelled; locked: a reader was taken but nothing read yet.
  if (request.bodyUsed || request.body?.locked) throw bodyAlreadyConsumed(options.consumedFix);
  const codings = contentCodings(request.headers);
  const declared = assertDeclaredWithinLimit(request.headers, options.maxBodyBytes);
  const raw = request.body ? await readStreamWithin(request.body, options.maxBodyBytes) : new Uint8Array(0);
  assertNotTruncated(raw.byteLength, declared);
  return decodeBody(raw, codings, options.maxBodyBytes);
}
