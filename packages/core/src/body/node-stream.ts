import { WebhookVerificationError } from "../errors";
import { BodyWatch } from "./body-watch";
import { bodyAlreadyConsumed } from "./consumed";
import { contentCodings, decodeBody } from "./content-encoding";
import { assertDeclaredWithinLimit, assertNotTruncated, type BodyLimits, concatBytes, payloadTooLarge } from "./limits";
import type { ReadBodyOptions } from "./web-request";

/**
 * The parts of Node's `IncomingMessage` we use; declared here so the core needs no Node types.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http2";
 * import { type NodeRequestLike, readNodeBody } from "@tidings/core/node";
 *
 * // An HTTP/2 server's request reads as an HTTP/1 IncomingMessage does.
 * createServer(async (req, res) => {
 *   const request: NodeRequestLike = req;
 *   const body = await readNodeBody(request, { maxBodyBytes: 1024 * 1024, consumedFix: "Read nothing first." });
 *   res.writeHead(200).end(`${body.byteLength} bytes`);
 * }).listen(3000);
 * ```
 */
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

/**
 * The exact bytes of a Node request body, bounded in size and time, with its Content-Encoding undone. Never hangs.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { constructEvent, SIGNATURE_HEADER, WebhookVerificationError } from "@tidings/core";
 * import { readNodeBody } from "@tidings/core/node";
 *
 * createServer(async (req, res) => {
 *   try {
 *     const body = await readNodeBody(req, { maxBodyBytes: 1024 * 1024, consumedFix: "Read nothing first." });
 *     const event = constructEvent(body, req.headers[SIGNATURE_HEADER], process.env.WEBHOOK_SECRET!);
 *     console.log("verified", event.type);
 *     res.writeHead(200).end();
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     res.writeHead(error.status).end(error.code); // 413 over the limit, 408 too slow, 400 truncated or forged
 *   }
 * }).listen(3000);
 * ```
 */
export async function readNodeBody(request: NodeRequestLike, options: ReadBodyOptions): Promise<Uint8Array> {
  return readNodeStream(request, request.headers, options);
}

/**
 * `readNodeBody` for `handleNodeRequest`, which already holds the headers (on Express's requests, prototype swapped
 * per request, every property lookup is slow). Not async: a refusal before reading throws, and the bytes come in
 * the stream's own promise instead of being handed up through another, which costs a turn and a `then` lookup.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createReceiver } from "@tidings/core";
 * import { readNodeStream, writeNodeResponse } from "@tidings/core/node";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const consumedFix = "Read nothing from req before the webhook does.";
 *
 * createServer(async (req, res) => {
 *   const { headers } = req; // read once: the Receiver's limits come in readBody's argument
 *   const result = await receiver.handle({
 *     method: req.method,
 *     headers,
 *     readBody: (limits) => readNodeStream(req, headers, { ...limits, consumedFix }),
 *   });
 *   writeNodeResponse(res, result);
 * }).listen(3000);
 * ```
 */
export function readNodeStream(
  request: NodeRequestLike,
  headers: NodeRequestLike["headers"],
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  return readNodeWithin(request, headers, options, options.consumedFix);
}

/** `readNodeStream` with the limits and the fix apart: the Receiver's limits object as it is, none built per request. */
export function readNodeWithin(
  request: NodeRequestLike,
  headers: NodeRequestLike["headers"],
  limits: BodyLimits,
  consumedFix: string,
): Promise<Uint8Array> {
  if (isNodeStreamConsumed(request)) throw bodyAlreadyConsumed(consumedFix);
  const codings = contentCodings(headers);
  const raw = collect(request, limits, consumedFix, assertDeclaredWithinLimit(headers, limits.maxBodyBytes));
  return codings.length === 0 ? raw : raw.then((bytes) => decodeBody(bytes, codings, limits.maxBodyBytes));
}

function interrupted(): WebhookVerificationError {
  return new WebhookVerificationError("body_truncated", "The client disconnected before the body was complete.");
}

function collect(request: NodeRequestLike, limits: BodyLimits, consumedFix: string, declared: number | undefined) {
  return new Promise<Uint8Array>((resolve, reject) => {
    let chunks: Uint8Array[] = [];
    let settled = false;
    // The listeners stay on a stream that ended (removing 'data' costs Node a tick, and the stream is done), so
    // 'close' still arrives after 'end': errors are built only for a stream that did not end, never per request.
    const finish = (failure?: () => Error) => {
      if (settled) return;
      settled = true;
      watch.clear();
      const received = chunks;
      chunks = [];
      if (failure) {
        request.removeListener("data", onData);
        request.pause();
        reject(failure());
        return;
      }
      try {
        assertNotTruncated(watch.received, declared);
        resolve(concatBytes(received, watch.received));
      } catch (truncated) {
        reject(truncated);
      }
    };
    const watch = new BodyWatch(limits, (error) => finish(() => error));
    const onData = (chunk: Uint8Array | string) => {
      if (typeof chunk === "string") return finish(() => bodyAlreadyConsumed(consumedFix));
      watch.received += chunk.byteLength;
      if (watch.received > limits.maxBodyBytes) return finish(() => payloadTooLarge(limits.maxBodyBytes));
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.on("end", () => finish());
    request.on("error", () => finish(interrupted));
    request.on("close", () => finish(interrupted));
  });
}
