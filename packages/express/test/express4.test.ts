import express4 from "express4";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { captureRawBody, webhookMiddleware } from "../src";
import { listen, post, recordingReceiver, signedDelivery } from "./helpers";

// body-parser 1 (Express 4) sets req.body = {} even when it skips a request, and req._body when it read one.
describe("webhookMiddleware on Express 4", () => {
  it("verifies the bytes captureRawBody kept behind a global express.json(); other routes keep their JSON", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express4();
    app.use(express4.json({ verify: captureRawBody }));
    app.post("/webhooks", webhookMiddleware(receiver));
    app.post("/orders", (req, res) => {
      res.json({ parsed: req.body });
    });
    const server = await listen(app);
    const delivery = signedDelivery("evt_express4");

    const response = await post(server, "/webhooks", delivery);
    const orders = await supertest(server).post("/orders").send({ sku: "a-1" });

    expect(response.status).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(delivery.signed)).toBe(true);
    expect(orders.body).toEqual({ parsed: { sku: "a-1" } });
  });

  it("answers 500 with the Express fix, without hanging, when express.json() consumed the body", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express4();
    app.use(express4.json());
    app.post("/webhooks", webhookMiddleware(receiver));

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_express4_parsed"));

    expect(response.status).toBe(500);
    expect(JSON.parse(response.text).error).toMatchObject({
      code: "body_already_parsed",
      message: expect.stringContaining("express.json({ verify: captureRawBody })"),
    });
    expect(seen).toHaveLength(0);
  });

  it("reads the stream itself when the global parser skipped the request and left req.body = {}", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express4();
    app.use(express4.json());
    let bodyBefore: unknown;
    app.post("/webhooks", (req, _res, next) => {
      bodyBefore = req.body;
      next();
    });
    app.post("/webhooks", webhookMiddleware(receiver));
    const delivery = signedDelivery("evt_express4_skipped");

    const response = await post(await listen(app), "/webhooks", {
      ...delivery,
      headers: { ...delivery.headers, "content-type": "application/octet-stream" },
    });

    expect(bodyBefore).toEqual({});
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("takes the Buffer of express.raw({ type: () => true }) on the route", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = express4();
    app.post("/webhooks", express4.raw({ type: () => true }), webhookMiddleware(receiver));
    app.use(express4.json());

    const response = await post(await listen(app), "/webhooks", signedDelivery("evt_express4_raw", { gzip: true }));

    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
  });
});
