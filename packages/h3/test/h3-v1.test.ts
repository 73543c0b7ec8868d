import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import {
  createApp,
  createRouter,
  defineEventHandler,
  type EventHandler,
  fromNodeMiddleware,
  readBody,
  toNodeListener,
  toWebHandler,
} from "h3-v1";
import { afterEach, describe, expect, it } from "vitest";
import { defineWebhookHandler } from "../src/index";
import { deliveryBody, post, recordingReceiver } from "./deliveries";

type App = ReturnType<typeof createApp>;
const servers: Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done)))));

function listen(app: App): Promise<string> {
  const server = createServer(toNodeListener(app)).listen(0, "127.0.0.1");
  servers.push(server);
  return new Promise((resolve) => {
    server.once("listening", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`));
  });
}

function appWith(handler: EventHandler, ...middleware: EventHandler[]): App {
  const app = createApp();
  for (const layer of middleware) app.use(layer);
  return app.use(createRouter().post("/webhooks", handler));
}

describe("defineWebhookHandler on h3 v1 (Nitro 2, Nuxt 4) over node:http", () => {
  it("verifies the exact bytes and dispatches the event", async () => {
    const { receiver, seen } = recordingReceiver();
    const body = deliveryBody();
    const response = await post(await listen(appWith(defineWebhookHandler(receiver))), body);
    expect([response.status, response.json]).toEqual([200, { received: true }]);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("uses the raw bytes h3 kept when a middleware ran readBody() first (not its re-serialised JSON)", async () => {
    const { receiver, seen } = recordingReceiver();
    let parsed: unknown;
    const readFirst = defineEventHandler(async (event) => {
      parsed = await readBody(event);
    });
    const body = deliveryBody("evt_read_first");
    const response = await post(await listen(appWith(defineWebhookHandler(receiver), readFirst)), body);
    expect(parsed).toMatchObject({ id: "evt_read_first" });
    expect(response.status).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("answers 500 body_already_parsed when a Node body parser (express.json) consumed the stream", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = appWith(defineWebhookHandler(receiver), fromNodeMiddleware(express.json()));
    const response = await post(await listen(app), deliveryBody());
    expect([response.status, response.json.error?.code]).toEqual([500, "body_already_parsed"]);
    expect(response.json.error?.message).toMatch(/express\.json\(\)/);
    expect(seen).toHaveLength(0);
  });

  it("reads the Web Request when the app is served through toWebHandler", async () => {
    const { receiver, seen } = recordingReceiver();
    const { sign } = await import("@tidings/core");
    const handle = toWebHandler(appWith(defineWebhookHandler(receiver)));
    const body = deliveryBody("evt_web");
    const response = await handle(
      new Request("http://127.0.0.1/webhooks", {
        method: "POST",
        headers: { "service-signature": sign(body, "whsec_h3") },
        body,
      }),
    );
    expect(response.status).toBe(200);
    expect(seen.map((context) => context.deliveryKey)).toEqual(["event:evt_web"]);
  });
});
