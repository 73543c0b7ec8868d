import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createFetchHandler } from "@tidings/fetch";
import { Hono } from "hono";
import { sendOverHttp } from "../http-client";
import { sendPartialOverSocket } from "../partial-body";
import { type AnyReceiver, type ConformanceTarget, PARAM_ROUTE, type RunningApp, WEBHOOK_PATH } from "../target";

function listen(app: Hono): Promise<RunningApp> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
      const baseUrl = `http://127.0.0.1:${info.port}`;
      resolve({
        url: baseUrl,
        send: (request) => sendOverHttp(baseUrl, WEBHOOK_PATH, request),
        sendPartial: (wire, bytes, ending) => sendPartialOverSocket(baseUrl, WEBHOOK_PATH, wire, bytes, ending),
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

export const honoTarget: ConformanceTarget = {
  name: "fetch (Hono on @hono/node-server)",
  start(receiver: AnyReceiver) {
    const handle = createFetchHandler(receiver);
    const app = new Hono();
    app.all(WEBHOOK_PATH, (c) => handle(c.req.raw));
    return listen(app);
  },
  fetchInProcess(receiver: AnyReceiver) {
    const handle = createFetchHandler(receiver);
    const app = new Hono();
    app.all(WEBHOOK_PATH, (c) => handle(c.req.raw));
    return async (request) => app.fetch(request);
  },
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const handle = createFetchHandler(receiver);
    const app = new Hono();
    app.use(WEBHOOK_PATH, async (c, next) => {
      await c.req.json().catch(() => undefined);
      await next();
    });
    app.all(WEBHOOK_PATH, (c) => handle(c.req.raw));
    return listen(app);
  },
  paramRoute: {
    start(receiver: AnyReceiver) {
      const handle = createFetchHandler(receiver);
      const app = new Hono();
      app.all(PARAM_ROUTE, (c) => handle(c.req.raw, { params: c.req.param(), route: c.req.routePath }));
      return listen(app);
    },
    route: PARAM_ROUTE,
  },
};
