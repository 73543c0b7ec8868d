import express, { type Express } from "express";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { captureRawBody, webhookMiddleware } from "../src";
import { listen, post, recordingReceiver, signedDelivery } from "./helpers";

/** Another route of the same app, to show it still gets its parsed JSON. */
function echoRoute(app: Express) {
  app.post("/orders", (req, res) => {
    res.json({ parsed: req.body });
  });
}

async function expectOrdersParsed(app: Express) {
  const server = await listen(app);
  const response = await supertest(server).post("/orders").send({ sku: "a-1" });
  expect(response.body).toEqual({ parsed: { sku: "a-1" } });
}

describe("webhookMiddleware on Express 5", () => {
  it("answers a delivery on a route mounted before the global express.json(), without calling next", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express();
    app.post("/webhooks", webhookMiddleware(receiver));
    app.use(express.json());
    let passedOn = 0;
    app.use("/webhooks", (_req, _res, next) => {
      passedOn++;
      next();
    });
    echoRoute(app);
    const delivery = signedDelivery("evt_first");

    const response = await post(await listen(app), "/webhooks", delivery);

    expect([response.status, response.text]).toEqual([200, '{"received":true}']);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(delivery.signed)).toBe(true);
    expect(passedOn).toBe(0);
    await expectOrdersParsed(app);
  });

  it("verifies the exact bytes captureRawBody kept when a global express.json() reads first", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express();
    app.use(express.json({ verify: captureRawBody }));
    app.post("/webhooks", webhookMiddleware(receiver));
    echoRoute(app);
    const delivery = signedDelivery("evt_captured");

    const response = await post(await listen(app), "/webhooks", delivery);

    expect(response.status).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(delivery.signed)).toBe(true);
    await expectOrdersParsed(app);
  });

  it("takes captureRawBody's bytes as already decoded when body-parser inflated a gzip body", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express();
    app.use(express.json({ verify: captureRawBody }));
    app.post("/webhooks", webhookMiddleware(receiver));

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_gzip", { gzip: true }));

    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("takes the Buffer of express.raw({ type: () => true }) on the route, gzip included", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express();
    app.post("/webhooks", express.raw({ type: () => true }), webhookMiddleware(receiver));
    app.use(express.json());
    echoRoute(app);
    const server = await listen(app);

    const plain = await post(server, "/webhooks", signedDelivery("evt_raw"));
    const gzipped = await post(server, "/webhooks", signedDelivery("evt_raw_gzip", { gzip: true }));

    expect([plain.status, gzipped.status]).toEqual([200, 200]);
    expect(seen.map((context) => context.deliveryKey)).toEqual(["event:evt_raw", "event:evt_raw_gzip"]);
    await expectOrdersParsed(app);
  });

  it("still applies the receiver's maxBodyBytes to the bytes express.raw() read", async () => {
    const { receiver, seen } = recordingReceiver({ maxBodyBytes: 1024 });
    const app = express();
    app.post("/webhooks", express.raw({ type: () => true, limit: "1mb" }), webhookMiddleware(receiver));

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_big", { pad: 4096 }));

    expect(response.status).toBe(413);
    expect(JSON.parse(response.text).error.code).toBe("payload_too_large");
    expect(seen).toHaveLength(0);
  });

  it("answers 500 with the Express fix, without hanging, when express.json() consumed the body; logs it once", async () => {
    const { receiver, seen, logged } = recordingReceiver();
    const app = express();
    app.use(express.json());
    app.post("/webhooks", webhookMiddleware(receiver));
    const server = await listen(app);

    const first = await post(server, "/webhooks", signedDelivery("evt_parsed_1"));
    const second = await post(server, "/webhooks", signedDelivery("evt_parsed_2"));

    for (const response of [first, second]) {
      expect(response.status).toBe(500);
      const { error } = JSON.parse(response.text);
      expect(error.code).toBe("body_already_parsed");
      expect(error.message).toContain("before app.use(express.json())");
      expect(error.message).toContain("express.raw({ type: () => true })");
      expect(error.message).toContain("express.json({ verify: captureRawBody })");
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toMatchObject({
      code: "body_already_parsed",
      message: expect.stringContaining("captureRawBody"),
    });
    expect(seen).toHaveLength(0);
  });

  it("answers 405 to other methods when mounted with app.use", async () => {
    const { receiver } = recordingReceiver();
    const app = express();
    app.use("/webhooks", webhookMiddleware(receiver));

    const response = await supertest(await listen(app)).get("/webhooks");

    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("POST");
  });
});
