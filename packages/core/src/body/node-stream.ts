import { WebhookVerificationError } from "../errors";
import { startSharedDeadline } from "../shared-deadline";
import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import {
  assertDeclaredWithinLimit,
  assertNotTruncated,
  bodyTimedOut,
  concatBytes,
  DEFAULT_BODY_TIMEOUT_MS,
  payloadTooLarge,
} from "./limits";
import type { ReadBodyOptions } from "./web-request";

/** The parts of Node's `IncomingMessage` we use; declared here so the core needs no Node types. */
export interface NodeRequestLike {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly readable?: boolean;
  readonly readableEnded?: boolean;
  readonly readableDidRead?: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
}

/** Someone read (or started reading) the stream, or it ended or failed: its bytes are no longer ours to read. */
function isNodeStreamConsumed(request: NodeRequestLike): boolean {
  return request.readableEnded === true || request.readableDidRead === true || request.readable === false;
}

/** The exact bytes of a Node request body, bounded in size and time, with its Content-Encoding undone. Never hangs. */
export async function readNodeBody(request: NodeRequestLike, options: ReadBodyOptions): Promise<Uint8Array> {
  return readNodeStream(request, request.headers, options);
}

/**
 * `readNodeBody` for `handleNodeRequest`, which already holds the headers (on Express's requests, prototype swapped
 * per request, every property lookup is slow). Not async: a refusal before reading throws, and the bytes come in
 * the stream's own promise instead of being handed up through another, which costs a turn and a `then` lookup.
 */
export function readNodeStream(
  request: NodeRequestLike,
  headers: NodeRequestLike["headers"],
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  if (isNodeStreamConsumed(request)) throw bodyAlreadyConsumed(options.consumedFix);
  const codings = contentCodings(headers);
  const raw = collect(request, options, assertDeclaredWithinLimit(headers, options.maxBodyBytes));
  return codings.length === 0 ? raw : raw.then((bytes) => decodeBody(bytes, codings, options.maxBodyBytes));
}

function interrupted(): WebhookVerificationError {
  return new WebhookVerificationError("body_truncated", "The client disconnected before the body was complete.");
}

function collect(request: NodeRequestLike, options: ReadBodyOptions, declared: number | undefined) {
  return new Promise<Uint8Array>((resolve, reject) => {
    let chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    const deadline = startSharedDeadline(bodyTimeoutMs, () => finish(() => bodyTimedOut(bodyTimeoutMs)));
    // The listeners stay on a stream that ended (removing 'data' costs Node a tick, and the stream is done), so
    // 'close' still arrives after 'end': errors are built only for a stream that did not end, never per request.
    const finish = (failure?: () => Error) => {
      if (settled) return;
      settled = true;
      deadline.clear();
      const received = chunks;
      chunks = [];
      if (failure) {
        request.removeListener("data", onData);
        request.pause();
        reject(failure());
        return;
      }
      try {
        assertNotTruncated(total, declared);
        resolve(concatBytes(received, total));
      } catch (truncated) {
        reject(truncated);
      }
    };
    const onData = (chunk: Uint8Array | string) => {
      if (typeof chunk === "string") return finish(() => bodyAlreadyConsumed(options.consumedFix));
      total += chunk.byteLength;
      if (total > options.maxBodyBytes) return finish(() => payloadTooLarge(options.maxBodyBytes));
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.on("end", () => finish());
    request.on("error", () => finish(interrupted));
    request.on("close", () => finish(interrupted));
  });
}
