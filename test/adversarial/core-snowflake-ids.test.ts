import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type DeliveryStore, MemoryStore, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import { RedisStore } from "@tidings/redis";
import express from "express";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../support/redis-server";

// 64-bit snowflake ids written as JSON numbers: JSON.parse rounds both of these to 9007199254740992.
const SECRET = "whsec_snowflakes";
const NEIGHBOURS = ["9007199254740992", "9007199254740993"];

let redis: RedisServer;
let client: Redis;
let server: Server | undefined;
beforeAll(async () => {
  redis = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: redis.port });
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((done) => server?.close(done));
});

async function expressReceiver(store: DeliveryStore) {
  const handled: string[] = [];
  const receiver = createReceiver({ secret: SECRET, store }).onAny((_event, context) => {
    handled.push(context.deliveryKey);
  });
  server = createServer(express().post("/webhooks", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const post = async (id: string) => {
    const body = `{"id":${id},"type":"message.sent","data":{"id":"msg_1"}}`;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: sign(body, SECRET) },
      body,
    });
    return (await response.json()) as { received?: boolean; duplicate?: boolean };
  };
  return { post, handled };
}

const STORES = {
  MemoryStore: () => new MemoryStore(),
  RedisStore: () => new RedisStore({ client, prefix: `snowflakes:${Math.random()}:` }),
};

describe.each(Object.entries(STORES))("numeric event ids beyond 2^53, over Express, on %s", (_name, store) => {
  it("handles two neighbouring snowflake ids as two events, and a replay of either as a duplicate", async () => {
    const { post, handled } = await expressReceiver(store());
    for (const id of NEIGHBOURS) expect(await post(id)).toEqual({ received: true });
    for (const id of NEIGHBOURS) expect(await post(id)).toMatchObject({ duplicate: true });
    expect(new Set(handled).size).toBe(2);
  });

  it("property: distinct 64-bit ids are never merged, however JSON.parse rounds them", async () => {
    const ids = fc.uniqueArray(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n }), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(ids, async (generated) => {
        const { post, handled } = await expressReceiver(store());
        try {
          for (const id of generated) expect((await post(id.toString())).received).toBe(true);
          expect(handled).toHaveLength(generated.length);
        } finally {
          server?.closeAllConnections();
          await new Promise((done) => server?.close(done));
          server = undefined;
        }
      }),
      { numRuns: 25 },
    );
  });
});
