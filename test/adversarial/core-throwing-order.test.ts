import type { Server } from "node:http";
import { createReceiver, type EventOrder, type ReceiveErrorInfo, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import tidings from "@tidings/fastify";
import express from "express";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { listen, postBytes } from "../support/node-app";

const SECRET = "whsec_order_throws";

const THROWING_ORDERS: Record<string, EventOrder> = {
  "order.key": {
    key: () => {
      throw new Error("key lookup failed: stack-secret-detail");
    },
    position: () => 1,
  },
  "order.position": {
    key: () => "msg_1",
    position: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'sequence')");
    },
  },
};

function delivery() {
  const body = Buffer.from(
    JSON.stringify({ id: "evt_1", type: "message.sent", data: { id: "msg_1", status: "sent" } }),
  );
  return { body, headers: { "content-type": "application/json", [SIGNATURE_HEADER]: sign(body, SECRET) } };
}

function receiverWith(order: EventOrder) {
  const reported: ReceiveErrorInfo[] = [];
  let runs = 0;
  const receiver = createReceiver({ secret: SECRET, order, logger: { error() {}, warn() {} } })
    .onAny(() => {
      runs++;
    })
    .onError((_error, info) => {
      reported.push(info);
    });
  return { receiver, reported, runs: () => runs };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function fastifyServer(receiver: ReturnType<typeof receiverWith>["receiver"]): Promise<Server> {
  const app = Fastify();
  await app.register(tidings, { receiver, path: "/webhooks" });
  await app.listen({ port: 0, host: "127.0.0.1" });
  closers.push(() => app.close());
  return app.server;
}

describe.each(Object.entries(THROWING_ORDERS))("a throwing %s", (_name, order) => {
  it("makes handle() answer 500 internal_error, never reject", async () => {
    const { receiver, reported, runs } = receiverWith(order);
    const answer = await receiver.receive({ rawBody: delivery().body, headers: delivery().headers });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "internal_error", message: "Unexpected failure; see the server logs." },
    });
    expect(reported.map(({ code }) => code)).toEqual(["internal_error"]);
    expect(runs()).toBe(0);
  });

  it.each([
    [
      "Express",
      (receiver: ReturnType<typeof receiverWith>["receiver"]) =>
        listen(express().post("/webhooks", webhookMiddleware(receiver))),
    ],
    ["Fastify", fastifyServer],
  ] as const)(
    "is answered on %s with the outcome's JSON, not the framework's error page",
    async (_framework, serve) => {
      const { receiver } = receiverWith(order);
      const response = await postBytes(await serve(receiver), "/webhooks", delivery());
      expect(response.status).toBe(500);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        error: { code: "internal_error", message: "Unexpected failure; see the server logs." },
      });
      expect(response.text).not.toMatch(/stack-secret-detail|sequence|at /);
    },
  );
});
