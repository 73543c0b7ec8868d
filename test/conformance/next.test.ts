import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPagesHandler, createRouteHandler } from "@tidings/next";
import { fromResponse, listenOnLoopback } from "./http-client";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH, type WireRequest } from "./target";

type RouteHandler = (request: Request) => Promise<Response>;

/** App Router: Next calls the exported handler with a Web Request; so do we, in-process, for every method. */
function routeApp(handler: RouteHandler): RunningApp {
  return {
    async send(wire: WireRequest) {
      const init = { method: wire.method, headers: wire.headers, body: wire.body ?? null, duplex: "half" };
      return fromResponse(await handler(new Request(`http://127.0.0.1${WEBHOOK_PATH}`, init as RequestInit)));
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

describeConformance({
  name: "next (App Router route handler, in-process Request)",
  start: async (receiver: AnyReceiver) => routeApp(createRouteHandler(receiver)),
  async startWithBodyParsedFirst(receiver: AnyReceiver) {
    const handler = createRouteHandler(receiver);
    // A misplaced wrapper (or proxy logic) that reads the JSON before the webhook handler does.
    return routeApp(async (request) => {
      await request.json().catch(() => undefined);
      return handler(request);
    });
  },
});

describeConformance({
  name: "next (Pages Router API route on node:http)",
  start: (receiver: AnyReceiver) => pagesApp(createPagesHandler(receiver)),
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const handler = createPagesHandler(receiver);
    return pagesApp(async (req, res) => {
      await parseBodyLikeNext(req);
      await handler(req, res);
    });
  },
});
