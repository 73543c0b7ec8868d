import Router from "@koa/router";
import Koa from "koa";
import supertest from "supertest";
import { expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { webhookMiddleware } from "../src";
import { listen } from "./helpers";

// The URL a scheme that signs it (Twilio's way) is given: what the sender called, mount path and query as sent.

it("hands over the URL called when a mount (koa-mount's way) rewrote ctx.path, the query byte for byte", async () => {
  const app = new Koa();
  // What koa-mount does for the sub-app it mounts at /api.
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith("/api/")) return;
    ctx.path = ctx.path.slice("/api".length);
    await next();
  });
  app.use(new Router().all("/webhooks", webhookMiddleware(urlEchoReceiver())).routes());
  const server = await listen(app);
  const { port } = server.address() as { port: number };

  const response = await supertest(server).get("/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb");

  expect([response.status, response.text]).toEqual([
    200,
    `http://127.0.0.1:${port}/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb`,
  ]);
});
