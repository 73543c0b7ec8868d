import type { HeaderSource } from "../http/headers";
import { contentCodings, decodeBody } from "./content-encoding";
import { withinLimit } from "./limits";

/**
 * Body bytes a platform handed over whole, as they came over the wire (Content-Encoding still applied): refused
 * over the limit, then decoded with the limit on the decoded size. For adapters that never see a stream
 * (AWS Lambda events, framework buffers).
 */
export function decodeWireBody(
  bytes: Uint8Array,
  headers: HeaderSource,
  maxBodyBytes: number,
): Uint8Array | Promise<Uint8Array> {
  const codings = contentCodings(headers);
  const body = withinLimit(bytes, maxBodyBytes);
  return codings.length === 0 ? body : decodeBody(body, codings, maxBodyBytes);
}
