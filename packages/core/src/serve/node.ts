import { type BodyLimits, withinLimit } from "../body/limits";
import { type NodeRequestLike, readNodeWithin } from "../body/node-stream";
import { decodeWireBody } from "../body/wire-bytes";
import { type TargetSource, targetOf } from "../endpoint/request-target";
import type { EventMap } from "../event-map";
import type { ReceiveResult } from "../http/result";
import type { DeliverySlot } from "../receiver/admission";
import type { Receiver } from "../receiver/receiver";

/**
 * The parts of Node's `ServerResponse` we use.
 *
 * @example
 * ```ts
 * import type { ReceiveResult } from "@tidings/core/adapter";
 * import { type NodeResponseLike, writeNodeResponse } from "@tidings/core/node";
 *
 * // A response that keeps what it is given: for a framework whose reply is not a ServerResponse, or a test.
 * class KeptResponse implements NodeResponseLike {
 *   status = 0;
 *   headers: Record<string, string> = {};
 *   body = "";
 *   writeHead(status: number, headers: Record<string, string>) {
 *     this.status = status;
 *     this.headers = headers;
 *   }
 *   end(body: string) {
 *     this.body = body;
 *   }
 * }
 *
 * export function kept(result: ReceiveResult): KeptResponse {
 *   const response = new KeptResponse();
 *   writeNodeResponse(response, result);
 *   return response;
 * }
 * ```
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

/**
 * How `handleNodeRequest` reads a request: the fix for a consumed body, bytes another layer read, and the target.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { targetOf } from "@tidings/core/adapter";
 * import { handleNodeRequest, type NodeRequestOptions, writeNodeResponse } from "@tidings/core/node";
 * import express, { type Request } from "express";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // The bytes express.raw() read, and the route Express matched, for a secret resolver.
 * const optionsFor = (req: Request): NodeRequestOptions => ({
 *   consumedFix: "Put express.raw({ type: () => true }) on the webhook route.",
 *   decodedBody: Buffer.isBuffer(req.body) ? req.body : undefined,
 *   target: () => targetOf(req.originalUrl, req.route?.path, req.params),
 * });
 *
 * const app = express();
 * app.post("/webhooks/:account", express.raw({ type: () => true }), async (req, res) => {
 *   writeNodeResponse(res, await handleNodeRequest(receiver, req, optionsFor(req)));
 * });
 * ```
 */
export interface NodeRequestOptions {
  /** How to mount the webhook in this framework so nothing reads the body first. */
  consumedFix: string;
  /** Bytes another layer already read, Content-Encoding undone (e.g. `express.raw()`); used instead of the stream. */
  decodedBody?: Uint8Array | undefined;
  /** Bytes another layer read as they were sent, Content-Encoding still applied (e.g. h3's kept buffer). */
  bodyAsSent?: Uint8Array | undefined;
  /** What the framework matched, for a secret resolver. Default: the path of `request.url`, no params. */
  target?: TargetSource | undefined;
  /**
   * The path and query the request came to, where the framework's `request.url` is relative to a mount point
   * (Express's `originalUrl`). Default `request.url`.
   */
  url?: string | undefined;
  /** A slot taken with `receiver.admit()` before the framework read the body (Fastify's `onRequest`). */
  slot?: DeliverySlot | undefined;
}

function bodyReader(request: NodeRequestLike, headers: NodeRequestLike["headers"], options: NodeRequestOptions) {
  const { decodedBody, bodyAsSent, consumedFix } = options;
  return (limits: BodyLimits): Uint8Array | Promise<Uint8Array> => {
    const { maxBodyBytes } = limits;
    if (decodedBody) return withinLimit(decodedBody, maxBodyBytes);
    if (bodyAsSent) return decodeWireBody(bodyAsSent, headers, maxBodyBytes);
    return readNodeWithin(request, headers, limits, consumedFix);
  };
}

/**
 * Handles a Node request end to end: method, bounded raw read (or the given bytes), receive. Never throws.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createReceiver } from "@tidings/core";
 * import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * createServer(async (req, res) => {
 *   if (req.url !== "/webhooks") return void res.writeHead(404).end();
 *   const result = await handleNodeRequest(receiver, req, { consumedFix: "Read nothing from req before this." });
 *   writeNodeResponse(res, result);
 * }).listen(3000);
 * ```
 */
export function handleNodeRequest<Events extends EventMap>(
  receiver: Receiver<Events>,
  request: NodeRequestLike & {
    method?: string | undefined;
    url?: string | undefined;
    socket?: object | null | undefined;
  },
  options: NodeRequestOptions,
): Promise<ReceiveResult> {
  const { headers } = request;
  return receiver.handle({
    method: request.method,
    headers,
    readBody: bodyReader(request, headers, options),
    target: options.target ?? (() => targetOf(request.url ?? "")),
    url: () => absoluteUrl(request, options.url ?? request.url),
    slot: options.slot,
  });
}

/** The request's URL as this server saw it: its protocol (TLS or not), its `Host`, the path and query. */
function absoluteUrl(
  request: { socket?: object | null | undefined; headers: NodeRequestLike["headers"] },
  path: string | undefined,
) {
  const host = request.headers.host;
  if (path === undefined || typeof host !== "string") return path;
  const encrypted = (request.socket as { encrypted?: boolean } | null | undefined)?.encrypted === true;
  return `${encrypted ? "https" : "http"}://${host}${path}`;
}

/**
 * Writes a `ReceiveResult` to a Node `ServerResponse`: status, headers, then the JSON body.
 *
 * @example
 * ```ts
 * import { http } from "@google-cloud/functions-framework";
 * import { createReceiver } from "@tidings/core";
 * import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // Google Cloud Functions: the framework kept the bytes it parsed in req.rawBody.
 * http("webhooks", async (req, res) => {
 *   const result = await handleNodeRequest(receiver, req, {
 *     decodedBody: req.rawBody,
 *     consumedFix: "In Google Cloud Functions, pass req.rawBody.",
 *   });
 *   writeNodeResponse(res, result);
 * });
 * ```
 */
export function writeNodeResponse(response: NodeResponseLike, result: ReceiveResult): void {
  response.writeHead(result.status, result.headers);
  response.end(result.body);
}
