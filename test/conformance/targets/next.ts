import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPagesHandler, createRouteHandler } from "@tidings/next";
import { fromResponse, listenOnLoopback } from "../http-client";
import { partialBodyStream } from "../partial-body";
import { type AnyReceiver, type ConformanceTarget, type RunningApp, WEBHOOK_PATH, type WireRequest } from "../target";

type RouteHandler = (request: Request) => Promise<Response>;

/** App Router: Next calls the exported handler with a Web Request; so do we, in-process, for every method. */
function routeApp(handler: RouteHandler): RunningApp {
  const call = async (wire: WireRequest, body: BodyInit | null, headers = wire.headers) => {
    const init = { method: wire.method, headers, body, duplex: "half" };
    return fromResponse(await handler(new Request(`http://127.0.0.1${WEBHOOK_PATH}`, init as RequestInit)));
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
};
