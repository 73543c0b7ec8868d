import { contentCodings, decodeBody } from "../body/content-encoding";
import { type BodyLimits, withinLimit } from "../body/limits";
import { type NodeRequestLike, readNodeStream } from "../body/node-stream";
import type { EventMap } from "../receiver/events";
import type { Receiver } from "../receiver/receiver";
import type { ReceiveResult } from "./result";

/** The parts of Node's `ServerResponse` we use. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

export interface NodeRequestOptions {
  /** How to mount the webhook in this framework so nothing reads the body first. */
  consumedFix: string;
  /** Bytes another layer already read and decoded (e.g. `express.raw()`); used instead of the stream. */
  rawBody?: Uint8Array | undefined;
  /** Bytes another layer read as they came over the wire, Content-Encoding still applied (e.g. Fastify's buffer parser). */
  wireBody?: Uint8Array | undefined;
}

function bodyReader(request: NodeRequestLike, headers: NodeRequestLike["headers"], options: NodeRequestOptions) {
  const { rawBody, wireBody, consumedFix } = options;
  return (limits: BodyLimits): Uint8Array | Promise<Uint8Array> => {
    const { maxBodyBytes } = limits;
    if (rawBody) return withinLimit(rawBody, maxBodyBytes);
    if (wireBody) {
      const codings = contentCodings(headers);
      const body = withinLimit(wireBody, maxBodyBytes);
      return codings.length === 0 ? body : decodeBody(body, codings, maxBodyBytes);
    }
    return readNodeStream(request, headers, { maxBodyBytes, bodyTimeoutMs: limits.bodyTimeoutMs, consumedFix });
  };
}

/** Handles a Node request end to end: method, bounded raw read (or the given bytes), receive. Never throws. */
export function handleNodeRequest<Events extends EventMap>(
  receiver: Receiver<Events>,
  request: NodeRequestLike & { method?: string | undefined },
  options: NodeRequestOptions,
): Promise<ReceiveResult> {
  const { headers } = request;
  return receiver.handle({ method: request.method, headers, readBody: bodyReader(request, headers, options) });
}

export function writeNodeResponse(response: NodeResponseLike, result: ReceiveResult): void {
  response.writeHead(result.status, result.headers);
  response.end(result.body);
}
