import { WebhookVerificationError } from "../errors";
import { type HeaderSource, headerValue } from "../http/headers";
import { nodeBuiltin } from "../runtime";
import { payloadTooLarge } from "./limits";
import { readStreamWithin } from "./web-stream";

export type ContentCoding = "gzip" | "deflate" | "br";

const CODINGS: Readonly<Record<string, ContentCoding | "identity">> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "br",
  identity: "identity",
};

function unsupported(coding: string, why = "is not supported; use gzip, deflate or none"): WebhookVerificationError {
  return new WebhookVerificationError("unsupported_encoding", `Content-Encoding "${coding}" ${why}.`);
}

/** The codings applied to the body, in the order they were applied; 415 for any we cannot undo. */
export function contentCodings(headers: HeaderSource): ContentCoding[] {
  const header = headerValue(headers, "content-encoding");
  if (header === undefined || header.trim() === "") return [];
  const codings: ContentCoding[] = [];
  for (const token of header.split(",")) {
    const coding = CODINGS[token.trim().toLowerCase()];
    if (coding === undefined) throw unsupported(token.trim());
    if (coding !== "identity") codings.push(coding);
  }
  return codings;
}

/** Undoes the codings, last applied first, never producing more than `maxBodyBytes` (no zip bombs). */
export async function decodeBody(
  bytes: Uint8Array,
  codings: readonly ContentCoding[],
  maxBodyBytes: number,
): Promise<Uint8Array> {
  let decoded = bytes;
  for (let i = codings.length - 1; i >= 0; i--) {
    decoded = await decodeOne(decoded, codings[i] as ContentCoding, maxBodyBytes);
  }
  return decoded;
}

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
    // Next.js's Edge runtime, for one, has a DecompressionStream that refuses every format.
    throw unsupported(coding, "cannot be decoded by this runtime");
  }
  try {
    return await readStreamWithin(
      new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream),
      maxBodyBytes,
    );
  } catch (error) {
    throw error instanceof WebhookVerificationError ? error : undecodable(coding, error);
  }
}
