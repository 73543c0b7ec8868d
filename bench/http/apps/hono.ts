import { serve } from "@hono/node-server";
import { createFetchHandler } from "@tidings/fetch";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline, INLINE_ROUTES } from "../inline-routes";
import { ADAPTER_ROUTES, ANSWER_BODY, ANSWER_HEADERS, ROUTES, type RunningApp, type StartApp } from "../routes";

export const start: StartApp = ({ receivers, hooks }) => {
  const app = new Hono();
  app.post(ROUTES.bare, async (c) => {
    await hooks.arrive("bare", await c.req.arrayBuffer());
    return c.body(ANSWER_BODY, 200, ANSWER_HEADERS);
  });
  for (const route of INLINE_ROUTES) {
    app.post(ROUTES[route], async (c) => {
      const body = new Uint8Array(await c.req.arrayBuffer());
      const status = await answerInline(route, body, c.req.header(SIGNATURE_HEADER), hooks);
      if (status !== 200) return c.body(null, status as ContentfulStatusCode);
      return c.body(ANSWER_BODY, 200, ANSWER_HEADERS);
    });
  }
  for (const route of ADAPTER_ROUTES) {
    const handle = createFetchHandler(receivers[route]);
    app.post(ROUTES[route], (c) => handle(c.req.raw));
  }
  return new Promise<RunningApp>((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
      resolve({ port: info.port, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
};
