import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPagesHandler, createRouteHandler } from "@tidings/next";
import { fromResponse, listenOnLoopback } from "../http-client";
import { partialBodyStream } from "../partial-body";
import { type AnyReceiver, type ConformanceTarget, type RunningApp, WEBHOOK_PATH, type WireRequest } from "../target";

type RouteHandler = (request: Request) => Promise<Response>;

/**
 * App Router: Next calls the exported handler with a Web Request whose URL names the host Next was started on
 * (`localhost`, whatever `Host` the client sent), then the path and query as sent; so do we, in-process, for every
 * method.
 */
function routeApp(handler: RouteHandler): RunningApp {
  const call = async (wire: WireRequest, body: BodyInit | null, headers = wire.headers) => {
    const init = { method: wire.method, headers, body, duplex: "half" };
    const url = `http://localhost:3000${wire.path ?? WEBHOOK_PATH}`;
    return fromResponse(await handler(new Request(url, init as RequestInit)));
  };
  return {
    send: (wire) => call(wire, (wire.body ?? null) as BodyInit | null),
    async sendPartial(wire, bytes, ending) {
      const headers = { ...wire.headers, "content-length": String(wire.body?.byteLength ?? 0) };
      const answer = await call(wire, partialBodyStream(wire, bytes, ending), headers);
      return ending === "abort" ? undefined : answer;
    },
    close: async () => {},
  };
}

type PagesHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Pages Router: the handler gets Node's request and response, here from a bare node:http server (as tRPC tests its adapter). */
function pagesApp(handler: PagesHandler): Promise<RunningApp> {
  return listenOnLoopback(createServer((req, res) => void handler(req, res)));
}

/** What Next's API resolver does when `config.api.bodyParser` is left on: read the body, parse it into req.body. */
async function parseBodyLikeNext(req: IncomingMessage & { body?: unknown }): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    req.body = JSON.parse(text);
  } catch {
    req.body = text;
  }
}

/** What Next's router makes of a path under a `webhooks/[account]` route: the decoded segment, as params. */
function accountSegment(url: string): { account: string } | undefined {
  const segment = /^\/webhooks\/([^/]+)\/?$/.exec(new URL(url, "http://127.0.0.1").pathname)?.[1];
  return segment === undefined ? undefined : { account: decodeURIComponent(segment) };
}

export const nextAppTarget: ConformanceTarget = {
  name: "next (App Router route handler, in-process Request)",
  start: async (receiver: AnyReceiver) => routeApp(createRouteHandler(receiver)),
  fetchInProcess: (receiver: AnyReceiver) => createRouteHandler(receiver),
  async startWithBodyParsedFirst(receiver: AnyReceiver) {
    const handler = createRouteHandler(receiver);
    // A misplaced wrapper (or proxy logic) that reads the JSON before the webhook handler does.
    return routeApp(async (request) => {
      await request.json().catch(() => undefined);
      return handler(request);
    });
  },
  paramRoute: {
    // app/webhooks/[account]/route.ts: Next.js passes the segments as a promise of params (since Next.js 15).
    async start(receiver: AnyReceiver) {
      const handler = createRouteHandler(receiver);
      return routeApp(async (request) => {
        const params = accountSegment(request.url);
        return params ? handler(request, { params: Promise.resolve(params) }) : new Response(null, { status: 404 });
      });
    },
    route: undefined,
  },
};

export const nextPagesTarget: ConformanceTarget = {
  name: "next (Pages Router API route on node:http)",
  start: (receiver: AnyReceiver) => pagesApp(createPagesHandler(receiver)),
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const handler = createPagesHandler(receiver);
    return pagesApp(async (req, res) => {
      await parseBodyLikeNext(req);
      await handler(req, res);
    });
  },
  paramRoute: {
    // An API route with an [account] segment: Next.js merges it into req.query, beside the query string's fields.
    start(receiver: AnyReceiver) {
      const handler = createPagesHandler(receiver);
      return pagesApp(async (req, res) => {
        const params = accountSegment(req.url ?? "");
        if (!params) return void res.writeHead(404).end();
        const query = Object.fromEntries(new URL(req.url ?? "", "http://127.0.0.1").searchParams);
        Object.assign(req, { query: { ...query, ...params } });
        await handler(req, res);
      });
    },
    route: undefined,
  },
};
