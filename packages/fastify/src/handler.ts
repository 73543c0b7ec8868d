import type { IncomingMessage } from "node:http";
import type { Receiver } from "@tidings/core";
import type { ReceiveResult } from "@tidings/core/adapter";
import { targetOf } from "@tidings/core/adapter";
import { handleNodeRequest, readNodeStream } from "@tidings/core/node";
import type { FastifyReply, FastifyRequest } from "fastify";
import { slotOf } from "./admission";

// biome-ignore lint/suspicious/noExplicitAny: a receiver of any event map; the plugin only moves bytes
export type AnyReceiver = Receiver<any>;

const CONSUMED_FIX =
  "In Fastify, declare the webhook route only through the plugin (await app.register(tidings, { receiver, path })), which gives it its own scope with a raw-bytes content-type parser; do not add the route yourself, and do not wrap that registration with fastify-plugin unless you pass { encapsulate: true }.";

/** Writes the Receiver's answer through Fastify, so the app's onSend/onResponse hooks still see it. */
export function sendResult(reply: FastifyReply, result: ReceiveResult): FastifyReply {
  // A string body with a JSON content-type already set: Fastify sends it as is, without serialising it again.
  return reply.code(result.status).headers(result.headers).send(result.body);
}

/**
 * The scope's content-type parser: core's bounded, timed reader on the body stream, Content-Encoding undone. A stream
 * something upstream already read (a root onRequest hook) is refused at once instead of waiting for an 'end' that
 * already went by.
 */
export function bodyParser(receiver: AnyReceiver) {
  const options = { ...receiver.bodyLimits, consumedFix: CONSUMED_FIX };
  return (request: FastifyRequest, payload: IncomingMessage) => readNodeStream(payload, request.headers, options);
}

/** The route handler: the scope's parser hands it the decoded bytes. */
export function webhookHandler(receiver: AnyReceiver) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // No bytes: Fastify skipped an empty body (core reads the untouched stream), or another scope's parser
    // consumed it (core sees the ended stream and answers 500 body_already_parsed with CONSUMED_FIX).
    const decodedBody = request.body instanceof Uint8Array ? request.body : undefined;
    return sendResult(
      reply,
      await handleNodeRequest(receiver, request.raw, {
        consumedFix: CONSUMED_FIX,
        decodedBody,
        // `rewriteUrl` changes the raw request's URL; the sender called the one before it.
        url: request.originalUrl,
        target: () => targetOf(request.url, request.routeOptions.url, request.params as object),
        slot: slotOf(request),
      }),
    );
  };
}
