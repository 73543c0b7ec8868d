import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpServer } from "@nestjs/common";
import type { Receiver } from "@tidings/core";
import type { ReceiveResult } from "@tidings/core/adapter";
import { targetOf } from "@tidings/core/adapter";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import type { FastifyInstance } from "fastify";
import { routePath } from "./route-path";

// biome-ignore lint/suspicious/noExplicitAny: a receiver of any event map; the route only moves bytes
export type AnyReceiver = Receiver<any>;

const CONSUMED_FIX =
  "In NestJS, TidingsModule mounts the webhook route ahead of Nest's body parsers, so a parser that runs before it read the body: a body parser on the Express instance given to ExpressAdapter (give it { verify: (req, _res, buf) => { req.rawBody = buf } } to keep the bytes), or, on Fastify, a Nest middleware bound to every route (leave the webhook path out with .exclude()).";

/**
 * Receives one request; a Buffer in `req.rawBody` (Nest's `rawBody` convention) is used when a parser ran first.
 * `params` are the platform's match of the route path (`/webhooks/:account`), for a secret resolver. `url` is the
 * path and query the sender called, before any mount point or URL rewrite took part of it.
 */
function receive(
  receiver: AnyReceiver,
  req: IncomingMessage & { rawBody?: unknown },
  { path, params, url }: { path: string; params: unknown; url: string | undefined },
): Promise<ReceiveResult> {
  const decodedBody = Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
  const target = () => targetOf(req.url ?? "", path, params as object | undefined);
  return handleNodeRequest(receiver, req, { consumedFix: CONSUMED_FIX, decodedBody, target, url });
}

type ExpressHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** On the Express app itself, before the parsers `app.init()` adds, so the stream is still unread. */
function mountOnExpress(
  app: { all(path: string, handler: ExpressHandler): unknown },
  path: string,
  receiver: AnyReceiver,
) {
  app.all(path, (req, res, next) => {
    const { params, originalUrl } = req as { params?: unknown; originalUrl?: string };
    receive(receiver, req, { path, params, url: originalUrl })
      .then((result) => writeNodeResponse(res, result))
      .catch(next);
  });
}

/** In its own scope whose one content-type parser leaves the stream unread for core; the app's parsers stay. */
function mountOnFastify(app: FastifyInstance, path: string, receiver: AnyReceiver) {
  app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, parsed) => parsed(null));
    scope.route({
      method: scope.supportedMethods,
      url: path,
      handler: async (request, reply) => {
        const result = await receive(receiver, request.raw, { path, params: request.params, url: request.originalUrl });
        return reply.code(result.status).headers(result.headers).send(result.body);
      },
    });
    done();
  });
}

/** Adds the webhook route to the platform under Nest: outside Nest's pipeline and global prefix. */
export function mountWebhookRoute(adapter: HttpServer, givenPath: string, receiver: AnyReceiver): void {
  const path = routePath(givenPath);
  const platform = adapter.getType();
  if (platform === "express") mountOnExpress(adapter.getInstance(), path, receiver);
  else if (platform === "fastify") mountOnFastify(adapter.getInstance(), path, receiver);
  else
    throw new Error(
      `TidingsModule supports @nestjs/platform-express and @nestjs/platform-fastify; this app runs on "${platform}".`,
    );
}
