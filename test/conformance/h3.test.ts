import { createServer } from "node:http";
import { defineWebhookHandler } from "@tidings/h3";
import express from "express";
import { H3, readBody, serve } from "h3";
import { createApp, createRouter, fromNodeMiddleware, toNodeListener } from "h3-v1";
import { listenOnLoopback, sendOverHttp } from "./http-client";
import { sendPartialOverSocket } from "./partial-body";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH } from "./target";

async function serveV2(app: H3): Promise<RunningApp> {
  const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  return {
    send: (request) => sendOverHttp(server.url as string, WEBHOOK_PATH, request),
    sendPartial: (wire, bytes, ending) =>
      sendPartialOverSocket(server.url as string, WEBHOOK_PATH, wire, bytes, ending),
    close: () => server.close(true),
  };
}

function serveV1(app: ReturnType<typeof createApp>): Promise<RunningApp> {
  return listenOnLoopback(createServer(toNodeListener(app)));
}

describeConformance({
  name: "h3 v2 (Nitro 3) on srvx",
  start: (receiver: AnyReceiver) => serveV2(new H3().all(WEBHOOK_PATH, defineWebhookHandler(receiver))),
  fetchInProcess(receiver: AnyReceiver) {
    const app = new H3().all(WEBHOOK_PATH, defineWebhookHandler(receiver));
    return async (request) => app.fetch(request);
  },
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const app = new H3()
      .use(async (event) => {
        await readBody(event).catch(() => undefined);
      })
      .all(WEBHOOK_PATH, defineWebhookHandler(receiver));
    return serveV2(app);
  },
});

describeConformance({
  name: "h3 v1 (Nitro 2, Nuxt 4) on node:http",
  start: (receiver: AnyReceiver) =>
    serveV1(createApp().use(createRouter().use(WEBHOOK_PATH, defineWebhookHandler(receiver)))),
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    // h3 v1 keeps the bytes of its own readBody(), so the mistake that loses them is a Node parser in front.
    const app = createApp()
      .use(fromNodeMiddleware(express.json()))
      .use(createRouter().use(WEBHOOK_PATH, defineWebhookHandler(receiver)));
    return serveV1(app);
  },
});
