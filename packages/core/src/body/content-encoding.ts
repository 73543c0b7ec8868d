import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";
import { nodeBuiltin } from "../runtime";
import { payloadTooLarge } from "./limits";
import { readStreamWithin } from "./web-stream";

/**
 * A content coding Tidings undoes (`x-gzip` reads as gzip; `identity` is none).
 *
 * @example
 * ```ts
 * import { type ContentCoding, contentCodings } from "@tidings/core/adapter";
 *
 * // Whether a framework's body reader must inflate: a 415 WebhookVerificationError for a coding Tidings cannot undo.
 * export function codingsOf(headers: Headers): ContentCoding[] {
 *   return contentCodings(headers); // "gzip, br" → ["gzip", "br"]; "x-gzip" → ["gzip"]; "identity" → []
 * }
 * ```
 */
export type ContentCoding = "gzip" | "deflate" | "br";

// A Map, not an object literal: a coding named like an Object.prototype member (`constructor`) must find nothing.
const CODINGS: ReadonlyMap<string, ContentCoding | "identity"> = new Map([
  ["gzip", "gzip"],
  ["x-gzip", "gzip"],
  ["deflate", "deflate"],
  ["br", "br"],
  ["identity", "identity"],
]);

/**
 * The most codings undone for one request. Each is undone before the signature can be checked, so an unsigned
 * request listing thousands of them would cost seconds of CPU; no sender compresses twice.
 */
const MAX_CONTENT_CODINGS = 2;

// Echoed to the sender: never more than a short, printable prefix of what it sent.
const shown = (coding: string) => JSON.stringify(coding.slice(0, 40));

function unsupported(coding: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "unsupported_encoding",
    `Content-Encoding ${shown(coding)} is not supported; use gzip, deflate, br or none.`,
  );
}

/**
 * The codings applied to the body, in the order they were applied; 415 for any we cannot undo, or too many.
 *
 * @example
 * ```ts
 * import { contentCodings, decodeBody } from "@tidings/core/adapter";
 *
 * // Bytes a platform kept as they were sent: Content-Encoding undone, bounded by the Receiver's limit.
 * export async function decoded(bytes: Uint8Array, headers: Headers, maxBodyBytes: number): Promise<Uint8Array> {
 *   const codings = contentCodings(headers);
 *   return codings.length === 0 ? bytes : decodeBody(bytes, codings, maxBodyBytes);
 * }
 * ```
 */
export function contentCodings(headers: HeaderSource): ContentCoding[] {
  const header = headerValue(headers, "content-encoding");
  if (header === undefined || header.trim() === "") return [];
  const codings: ContentCoding[] = [];
  for (const token of header.split(",")) {
    const coding = CODINGS.get(token.trim().toLowerCase());
    if (coding === undefined) throw unsupported(token.trim());
    if (coding === "identity") continue;
    if (codings.length === MAX_CONTENT_CODINGS) {
      throw new WebhookVerificationError(
        "unsupported_encoding",
        `More than ${MAX_CONTENT_CODINGS} content codings in Content-Encoding; send the body compressed once, or not at all.`,
      );
    }
    codings.push(coding);
  }
  return codings;
}

/**
 * Undoes the codings, last applied first, never producing more than `maxBodyBytes` (no zip bombs).
 *
 * @example
 * ```ts
 * import { gzipSync } from "node:zlib";
 * import { decodeBody } from "@tidings/core/adapter";
 *
 * const wire = gzipSync(JSON.stringify({ type: "message.sent" }));
 * const body = await decodeBody(wire, ["gzip"], 1024 * 1024); // over 1 MiB decoded: payload_too_large (413)
 * console.log(new TextDecoder().decode(body)); // {"type":"message.sent"}
 * ```
 */
export async function decodeBody(
  bytes: Uint8Array,
  codings: readonly ContentCoding[],
  maxBodyBytes: number,
): Promise<Uint8Array> {
  // Inflating costs CPU in proportion to its output, and this runs before the signature is checked: a few hundred
  // bytes must not buy megabytes of inflating. JSON compresses tens of times, never a thousand.
  const expansionCap = MAX_DECODED_RATIO * bytes.byteLength;
  const limit = Math.min(maxBodyBytes, expansionCap);
  let decoded = bytes;
  try {
    for (let i = codings.length - 1; i >= 0; i--) {
      decoded = await decodeOne(decoded, codings[i] as ContentCoding, limit);
    }
  } catch (error) {
    if (limit < maxBodyBytes && (error as WebhookVerificationError).code === "payload_too_large") {
      throw new WebhookVerificationError(
        "payload_too_large",
        `The body decodes to more than ${MAX_DECODED_RATIO} times its ${bytes.byteLength} bytes on the wire: refused as a decompression bomb.`,
      );
    }
    throw error;
  }
  return decoded;
}

/** The most a body may grow when its codings are undone, as a multiple of its size on the wire. */
const MAX_DECODED_RATIO = 1000;

function undecodable(coding: ContentCoding, cause: unknown): WebhookVerificationError {
  return new WebhookVerificationError("invalid_payload", `The body is not valid ${coding} data.`, { cause });
}

type Zlib = typeof import("node:zlib");
type ZlibCallback = (error: Error | null, output: Uint8Array) => void;

function decodeOne(bytes: Uint8Array, coding: ContentCoding, maxBodyBytes: number): Promise<Uint8Array> {
  const zlib = nodeBuiltin<Zlib>("node:zlib");
  return zlib ? decodeWithZlib(zlib, bytes, coding, maxBodyBytes) : decodeWithStreams(bytes, coding, maxBodyBytes);
}

function decodeWithZlib(zlib: Zlib, bytes: Uint8Array, coding: ContentCoding, maxBodyBytes: number) {
  type Decode = (input: Uint8Array, options: { maxOutputLength: number }, done: ZlibCallback) => void;
  const decode = { gzip: zlib.gunzip, deflate: zlib.inflate, br: zlib.brotliDecompress }[coding] as Decode;
  return new Promise<Uint8Array>((resolve, reject) => {
    // maxOutputLength makes zlib stop at the limit instead of inflating a bomb into memory.
    decode(bytes, { maxOutputLength: Math.max(1, maxBodyBytes + 1) }, (error, output) => {
      if ((error as { code?: string } | null)?.code === "ERR_BUFFER_TOO_LARGE") reject(payloadTooLarge(maxBodyBytes));
      else if (error) reject(undecodable(coding, error));
      else if (output.byteLength > maxBodyBytes) reject(payloadTooLarge(maxBodyBytes));
      else resolve(output);
    });
  });
}

const STREAM_FORMATS: Readonly<Record<ContentCoding, string>> = { gzip: "gzip", deflate: "deflate", br: "brotli" };

async function decodeWithStreams(bytes: Uint8Array, coding: ContentCoding, maxBodyBytes: number) {
  // Looked up on globalThis: some runtimes lack it, and Next.js warns at build time about a bare reference in Edge code.
  const Decompression = (globalThis as { DecompressionStream?: typeof DecompressionStream }).DecompressionStream;
  let stream: DecompressionStream;
  try {
    if (Decompression === undefined) throw new TypeError("no DecompressionStream");
    stream = new Decompression(STREAM_FORMATS[coding] as CompressionFormat);
  } catch {
    throw new WebhookVerificationError(
      "unsupported_encoding",
      `This runtime cannot decode Content-Encoding "${coding}" (its DecompressionStream lacks it): have the sender or a proxy send this body uncompressed, or run the webhook route on Node.js.`,
    );
  }
  try {
    // Bytes already in memory: no arrival rate to hold them to.
    return await readStreamWithin(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream), {
      maxBodyBytes,
      minBodyBytesPerSecond: 0,
    });
  } catch (error) {
    throw error instanceof WebhookVerificationError ? error : undecodable(coding, error);
  }
}
