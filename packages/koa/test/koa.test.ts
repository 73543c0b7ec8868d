import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import Koa from "koa";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { webhookMiddleware } from "../src";
import { listen, post, recordingReceiver, signedDelivery } from "./helpers";

/** A JSON route of the same app, to show it still gets its parsed body. */
function ordersRouter(...before: Koa.Middleware[]) {
  return new Router().post("/orders", ...before, (ctx) => {
    ctx.body = { parsed: ctx.request.body };
  });
}

async function expectOrdersParsed(app: Koa) {
  const response = await supertest(await listen(app))
    .post("/orders")
    .send({ sku: "a-1" });
  expect(response.body).toEqual({ parsed: { sku: "a-1" } });
}

describe("webhookMiddleware on Koa", () => {
  it("answers a delivery on a @koa/router route mounted before bodyParser(), without calling next", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = new Koa();
    app.use(new Router().post("/webhooks", webhookMiddleware(receiver)).routes());
    app.use(bodyParser());
    let passedOn = 0;
    app.use((ctx, next) => {
      if (ctx.path === "/webhooks") passedOn++;
      return next();
    });
    app.use(ordersRouter().routes());
    const delivery = signedDelivery("evt_koa");

    const response = await post(await listen(app), "/webhooks", delivery);

    expect([response.status, response.text]).toEqual([200, '{"received":true}']);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(delivery.body)).toBe(true);
    expect(passedOn).toBe(0);
    await expectOrdersParsed(app);
  });

  it("answers a delivery when bodyParser() runs only on the routes that need it", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = new Koa();
    app.use(ordersRouter(bodyParser()).post("/webhooks", webhookMiddleware(receiver)).routes());

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_koa_scoped"));

    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    await expectOrdersParsed(app);
  });

  it("answers a delivery when a global bodyParser() is switched off for the webhook path", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = new Koa();
    app.use((ctx, next) => {
      if (ctx.path === "/webhooks") ctx.disableBodyParser = true;
      return next();
    });
    app.use(bodyParser());
    app.use(ordersRouter().post("/webhooks", webhookMiddleware(receiver)).routes());

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_koa_disabled"));

    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    await expectOrdersParsed(app);
  });

  it("leaves the response to Koa, so upstream middleware still sees and changes it", async () => {
    const { receiver } = recordingReceiver();
    const app = new Koa();
    app.use(async (ctx, next) => {
      await next();
      ctx.set("x-status-seen", String(ctx.status));
    });
    app.use(new Router().post("/webhooks", webhookMiddleware(receiver)).routes());

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_koa_upstream"));

    expect(response.status).toBe(200);
    expect(response.headers["x-status-seen"]).toBe("200");
  });

  it("answers 500 with the Koa fix, without hanging, when bodyParser() ran first; ignores its rawBody string; logs once", async () => {
    const { receiver, seen, logged } = recordingReceiver();
    const app = new Koa();
    app.use(bodyParser());
    const rawBodyTypes: string[] = [];
    app.use((ctx, next) => {
      rawBodyTypes.push(typeof ctx.request.rawBody);
      return next();
    });
    app.use(new Router().post("/webhooks", webhookMiddleware(receiver)).routes());
    const server = await listen(app);

    const first = await post(server, "/webhooks", signedDelivery("evt_koa_parsed_1"));
    const second = await post(server, "/webhooks", signedDelivery("evt_koa_parsed_2"));

    expect(rawBodyTypes).toEqual(["string", "string"]);
    for (const response of [first, second]) {
      expect(response.status).toBe(500);
      const { error } = JSON.parse(response.text);
      expect(error.code).toBe("body_already_parsed");
      expect(error.message).toContain("before app.use(bodyParser())");
      expect(error.message).toContain("ctx.disableBodyParser");
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toMatchObject({ code: "body_already_parsed", message: expect.stringContaining("In Koa") });
    expect(seen).toHaveLength(0);
  });
});
