import { createReceiver, sign } from "@tidings/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../../../test/support/redis-server";
import { until } from "../../../test/support/wait";
import { RedisStore } from "../src";

const SECRET = "whsec_redis";
let server: RedisServer;
let client: Redis;

beforeAll(async () => {
  server = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: server.port, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  client.on("error", () => {}); // reconnection attempts during the outage test
});

afterAll(async () => {
  client.disconnect();
  await server.stop();
});

function delivery(id: string) {
  const body = JSON.stringify({ id, type: "message.sent", data: { id: "msg_r", status: "sent", channel: "email" } });
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, SECRET) } };
}

describe("RedisStore", () => {
  it("needs a client", () => {
    expect(() => new RedisStore({} as never)).toThrow(TypeError);
  });

  it("keeps its keys under the prefix, with the lease and the done TTL as Redis expiries", async () => {
    const store = new RedisStore({ client, prefix: "app1:" });
    const claim = await store.claim("event:evt_ttl", 30_000);
    expect(claim.state).toBe("claimed");
    expect(await client.get("app1:event:evt_ttl")).toMatch(/^in-flight:/);
    expect(await client.pttl("app1:event:evt_ttl")).toBeGreaterThan(20_000);
    if (claim.state !== "claimed") return;
    await store.complete("event:evt_ttl", claim.token, 86_400_000);
    expect(await client.get("app1:event:evt_ttl")).toMatch(/^done:/);
    expect(await client.pttl("app1:event:evt_ttl")).toBeGreaterThan(86_000_000);
  });

  it("keeps receivers with different prefixes apart", async () => {
    const a = new RedisStore({ client, prefix: "a:" });
    const b = new RedisStore({ client, prefix: "b:" });
    expect((await a.claim("k", 10_000)).state).toBe("claimed");
    expect((await b.claim("k", 10_000)).state).toBe("claimed");
  });

  it("answers 503 while Redis is down, runs and marks nothing, and recovers on its own", async () => {
    let runs = 0;
    const receiver = createReceiver({
      secret: SECRET,
      store: new RedisStore({ client, prefix: "outage:", operationTimeoutMs: 500 }),
      logger: { error() {} },
    }).on("message.sent", () => {
      runs++;
    });
    await server.stop();
    const during = await receiver.receive(delivery("evt_outage"));
    expect([during.status, JSON.parse(during.body).error.code]).toEqual([503, "store_unavailable"]);
    expect(runs).toBe(0);
    await server.start();
    await until(
      async () => (await receiver.receive(delivery("evt_outage"))).status === 200,
      "a 200 once Redis is back",
    );
    expect(runs).toBe(1);
    expect(JSON.parse((await receiver.receive(delivery("evt_outage"))).body)).toEqual({
      received: true,
      duplicate: true,
    });
  });
});
