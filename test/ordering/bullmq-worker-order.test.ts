import { SpanStatusCode } from "@opentelemetry/api";
import { createWorker, enqueueTo } from "@tidings/bullmq";
import { createReceiver, type DeliveryStore, messageStatusOrder, sign } from "@tidings/core";
import type { JobOutcome } from "@tidings/core/dispatch";
import { instrument } from "@tidings/opentelemetry";
import { RedisStore } from "@tidings/redis";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordingSdk } from "../../packages/opentelemetry/test/sdk";
import { RedisServer } from "../support/redis-server";
import { until } from "../support/wait";

const SECRET = "whsec_worker_order";
let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: redis.port });
});

afterAll(async () => {
  client?.disconnect();
  await redis?.remove();
});

function delivery(message: string, status: "queued" | "sent" | "delivered") {
  const body = JSON.stringify({ id: `${message}-${status}`, type: `message.${status}`, data: { id: message, status } });
  const rawBody = new TextEncoder().encode(body);
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

describe("a BullMQ worker with order", () => {
  it("puts a job of a busy object back without using up its one attempt, completes a stale job without handlers", async () => {
    const name = `worker-order-${Date.now()}`;
    const connection = { host: "127.0.0.1", port: redis.port };
    const queue = new Queue(name, { connection });
    const store = new RedisStore({ client, prefix: `${name}:` });
    const receiver = createReceiver({ secret: SECRET }).onAny(enqueueTo(queue, { attempts: 1 }));
    const ran: string[] = [];
    const outcomes: JobOutcome[] = [];
    const worker = createWorker({ queue: name, connection, order: messageStatusOrder, store, orderWaitMs: 0 });
    worker.onAny((event) => {
      ran.push(String(event.id));
    });
    worker.onOutcome((outcome) => {
      outcomes.push(outcome);
    });
    const sdk = new RecordingSdk();
    instrument(worker, sdk.options);
    try {
      // Another worker holds msg_1 (its job for position 1 is in its handlers), under the worker's own keys.
      const object = { object: `job:${name}:msg_1`, position: 1 };
      const held = await store.claimInOrder("elsewhere", 60_000, object, 60_000);
      if (held.state !== "claimed") throw new Error(held.state);
      expect((await receiver.receive(delivery("msg_1", "sent"))).status).toBe(200);
      await until(() => outcomes.some((outcome) => outcome.code === "deferred"), "a deferred run");
      expect(ran).toEqual([]);
      await store.completeInOrder("elsewhere", held.token, 60_000, object);
      await until(() => outcomes.some((outcome) => outcome.code === "completed"), "the job to complete");
      expect(ran).toEqual(["msg_1-sent"]);
      // With attempts: 1, a deferral that counted as a failed attempt would have left the job failed. The outcome is
      // reported before BullMQ moves the job to completed: wait for the move.
      await until(async () => (await queue.getJobCounts("completed")).completed === 1, "the job in completed");
      expect(await queue.getJobCounts("failed", "completed")).toEqual({ failed: 0, completed: 1 });

      expect((await receiver.receive(delivery("msg_1", "queued"))).status).toBe(200);
      await until(() => outcomes.some((outcome) => outcome.code === "stale"), "a stale run");
      expect(ran).toEqual(["msg_1-sent"]);
      await until(async () => (await queue.getJobCounts("completed")).completed === 2, "both jobs completed");
      // Deferred and stale runs are normal outcomes: their spans are not errors.
      const runs = sdk.spans().filter((span) => span.attributes["tidings.outcome"] !== undefined);
      const byOutcome = (code: string) => runs.filter((span) => span.attributes["tidings.outcome"] === code);
      expect(byOutcome("stale")).toHaveLength(1);
      expect(byOutcome("deferred").length).toBeGreaterThan(0);
      for (const span of [...byOutcome("stale"), ...byOutcome("deferred")]) {
        expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
        expect(span.attributes["error.type"]).toBeUndefined();
      }
    } finally {
      await sdk.shutdown();
      await worker.close();
      await queue.close();
    }
  });

  it("refuses order without a store, or with a store that keeps no order", () => {
    const connection = { host: "127.0.0.1", port: redis.port, lazyConnect: true };
    const plain: DeliveryStore = { claim: () => ({ state: "done" }), complete: () => true, release: () => true };
    expect(() =>
      createWorker({ queue: "q", connection, bullmq: { autorun: false }, order: messageStatusOrder }),
    ).toThrow(/`order` needs `store`/);
    expect(() =>
      createWorker({ queue: "q", connection, bullmq: { autorun: false }, order: messageStatusOrder, store: plain }),
    ).toThrow(/claimInOrder/);
  });
});
