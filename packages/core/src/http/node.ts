import { type BodyLimits, withinLimit } from "../body/limits";
import { type NodeRequestLike, readNodeStream } from "../body/node-stream";
import { decodeWireBody } from "../body/wire-bytes";
import { type TargetSource, targetOf } from "../endpoint/request-target";
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
  /** Bytes another layer already read, Content-Encoding undone (e.g. `express.raw()`); used instead of the stream. */
  decodedBody?: Uint8Array | undefined;
  /** Bytes another layer read as they were sent, Content-Encoding still applied (e.g. h3's kept buffer). */
  bodyAsSent?: Uint8Array | undefined;
  /** What the framework matched, for a secret resolver. Default: the path of `request.url`, no params. */
  target?: TargetSource | undefined;
}

function bodyReader(request: NodeRequestLike, headers: NodeRequestLike["headers"], options: NodeRequestOptions) {
  const { decodedBody, bodyAsSent, consumedFix } = options;
  return (limits: BodyLimits): Uint8Array | Promise<Uint8Array> => {
    const { maxBodyBytes } = limits;
    if (decodedBody) return withinLimit(decodedBody, maxBodyBytes);
    if (bodyAsSent) return decodeWireBody(bodyAsSent, headers, maxBodyBytes);
    return readNodeStream(request, headers, { maxBodyBytes, bodyTimeoutMs: limits.bodyTimeoutMs, consumedFix });
  };
}

/** Handles a Node request end to end: method, bounded raw read (or the given bytes), receive. Never throws. */
export function handleNodeRequest<Events extends EventMap>(
  receiver: Receiver<Events>,
  request: NodeRequestLike & { method?: string | undefined; url?: string | undefined },
  options: NodeRequestOptions,
): Promise<ReceiveResult> {
  const { headers } = request;
  return receiver.handle({
    method: request.method,
    headers,
    readBody: bodyReader(request, headers, options),
    target: options.target ?? (() => targetOf(request.url ?? "")),
  });
}

export function writeNodeResponse(response: NodeResponseLike, result: ReceiveResult): void {
  response.writeHead(result.status, result.headers);
  response.end(result.body);
}
