import { createHash } from "node:crypto";
import { createReceiver, sign } from "@tidings/core";
import type { WorkerContext } from "@tidings/core/dispatch";
import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventBody, QUEUE_SECRET, tidings } from "../../../test/support/queue-scenarios";
import { RedisServer } from "../../../test/support/redis-server";
import { createWorker, type DeliveryWorker, enqueueTo, jobIdFor } from "../src";

let redis: RedisServer;
const closing: { close(): Promise<void> }[] = [];
let queueNumber = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((thing) => thing.close()));
});
afterAll(async () => {
  await redis.stop();
});

const quiet = { error() {} };
const connection = () => ({ host: "127.0.0.1", port: redis.port });

function newQueue(): Queue {
  const queue = new Queue(`q${++queueNumber}`, { connection: connection() });
  queue.on("error", () => {});
  closing.push(queue);
  return queue;
}

function worker(queue: Queue, options: { concurrency?: number } = {}): DeliveryWorker {
  const created = createWorker({ queue: queue.name, connection: connection(), logger: quiet, ...options });
  created.worker.on("error", () => {});
  closing.unshift(created);
  return created;
}

function delivery(id: string) {
  const body = eventBody(id);
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, QUEUE_SECRET) } };
}

const receiverFor = (queue: Queue, options = {}) =>
  createReceiver({ secret: QUEUE_SECRET, logger: quiet }).onAny(
    enqueueTo(queue, { backoff: { type: "fixed", delay: 10 }, ...options }),
  );

describe("enqueueTo", () => {
  it("adds one job per event, its id from the delivery key without ':', holding the event and the body's digest", async () => {
    const queue = newQueue();
    const result = await receiverFor(queue).receive(delivery("evt_1"));
    expect(result.status).toBe(200);
    expect(jobIdFor("event:evt_1")).toBe("event%3Aevt_1");
    const job = await queue.getJob("event%3Aevt_1");
    expect(job?.name).toBe("message.delivered");
    expect(job?.data).toEqual({
      event: JSON.parse(eventBody("evt_1")),
      type: "message.delivered",
      deliveryKey: "event:evt_1",
      timestamp: expect.any(Number),
      secretIndex: 0,
      rawBodySha256: createHash("sha256").update(eventBody("evt_1")).digest("hex"),
    });
    expect(job?.opts).toMatchObject({ attempts: 5, removeOnComplete: { age: 86_400 }, removeOnFail: false });
  });

  it("keeps the raw body only when asked", async () => {
    const queue = newQueue();
    await receiverFor(queue, { keepRawBody: true }).receive(delivery("evt_raw"));
    const job = await queue.getJob(jobIdFor("event:evt_raw"));
    expect(Buffer.from(job?.data.rawBody, "base64").toString()).toBe(eventBody("evt_raw"));
  });

  it("one job even when each receiver has its own store, or forgot the event: the engine refuses the second", async () => {
    const queue = newQueue();
    const results = await Promise.all(
      [receiverFor(queue), receiverFor(queue), receiverFor(queue)].map((r) => r.receive(delivery("evt_dup"))),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const handled: string[] = [];
    worker(queue).onAny((_event, context) => {
      handled.push(context.deliveryKey);
    });
    await expect.poll(() => handled.length).toBe(1);
    expect((await receiverFor(queue).receive(delivery("evt_dup"))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handled).toEqual(["event:evt_dup"]);
    expect(await queue.getJobCountByTypes("completed", "waiting", "active", "failed")).toBe(1);
  });

  it("Redis down: the enqueue gives up after timeoutMs, the Receiver answers 500 and releases its claim", async () => {
    const queue = newQueue();
    const receiver = receiverFor(queue, { timeoutMs: 300 });
    const errors: string[] = [];
    receiver.onError((error) => errors.push((error as Error).message));
    await redis.stop();
    try {
      const during = await receiver.receive(delivery("evt_down"));
      expect([during.status, JSON.parse(during.body).error.code]).toEqual([500, "handler_failed"]);
      expect(errors[0]).toMatch(/did not complete within 300 ms/);
    } finally {
      await redis.start();
    }
    // Released: the sender's retry is processed (a kept claim would answer 409).
    await expect.poll(async () => (await receiver.receive(delivery("evt_down"))).status, { timeout: 10_000 }).toBe(200);
    expect(await queue.getJobCountByTypes("waiting", "completed")).toBe(1);
  });
});

describe("createWorker", () => {
  it("hands each handler the event and its context: type, deliveryKey, attempt, jobId, the body's digest", async () => {
    const queue = newQueue();
    await receiverFor(queue).receive(delivery("evt_ctx"));
    const seen: [unknown, WorkerContext][] = [];
    worker(queue).on("message.delivered", (event, context) => {
      seen.push([event.data.id, context]);
    });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual([
      "msg_evt_ctx",
      {
        type: "message.delivered",
        deliveryKey: "event:evt_ctx",
        timestamp: expect.any(Number),
        secretIndex: 0,
        attempt: 1,
        jobId: "event%3Aevt_ctx",
        rawBodySha256: createHash("sha256").update(eventBody("evt_ctx")).digest("hex"),
      },
    ]);
  });

  it("a handler failing twice then succeeding: three runs, attempts 1, 2, 3, one success", async () => {
    const queue = newQueue();
    await receiverFor(queue).receive(delivery("evt_flaky"));
    const attempts: number[] = [];
    const failures: unknown[] = [];
    let succeeded = 0;
    worker(queue)
      .on("message.delivered", (_event, { attempt }) => {
        attempts.push(attempt);
        if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
        succeeded++;
      })
      .onError((_error, info) => failures.push([info.code, info.attempt, info.jobId]));
    await expect.poll(async () => (await queue.getJob("event%3Aevt_flaky"))?.finishedOn).toBeDefined();
    expect(attempts).toEqual([1, 2, 3]);
    expect(succeeded).toBe(1);
    expect(failures).toEqual([
      ["handler_failed", 1, "event%3Aevt_flaky"],
      ["handler_failed", 2, "event%3Aevt_flaky"],
    ]);
    expect(await (await queue.getJob("event%3Aevt_flaky"))?.getState()).toBe("completed");
  });

  it("every handler runs even when one fails; the job fails with both errors and runs them all again", async () => {
    const queue = newQueue();
    await receiverFor(queue, { attempts: 2 }).receive(delivery("evt_both"));
    const runs: string[] = [];
    worker(queue)
      .on("message.delivered", () => {
        runs.push("a");
        throw new Error("a broke");
      })
      .onAny(async () => {
        runs.push("b");
        throw new Error("b broke");
      });
    await expect.poll(async () => (await queue.getJob("event%3Aevt_both"))?.getState()).toBe("failed");
    expect(runs).toEqual(["a", "b", "a", "b"]);
    expect((await queue.getJob("event%3Aevt_both"))?.failedReason).toBe("2 handlers failed: a broke; b broke");
  });

  it("a job not written by enqueueTo fails with a clear error", async () => {
    const queue = newQueue();
    await queue.add("message.sent", { hello: "world" }, { jobId: "stray", attempts: 1 });
    const errors: unknown[] = [];
    worker(queue).onError((error, info) => errors.push([info.code, (error as Error).message]));
    await expect
      .poll(() => errors)
      .toEqual([["invalid_job", "Job stray does not hold a delivery enqueued by enqueueTo()"]]);
  });

  it("close() lets the running job finish before it resolves", async () => {
    const queue = newQueue();
    await receiverFor(queue).receive(delivery("evt_close"));
    let finished = false;
    let started = false;
    const running = worker(queue).onAny(async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
      finished = true;
    });
    await expect.poll(() => started).toBe(true);
    await running.close();
    expect(finished).toBe(true);
    expect(await (await queue.getJob("event%3Aevt_close"))?.getState()).toBe("completed");
  });
});

describe("tidings queue on a BullMQ queue", () => {
  it("failed lists a job that used up its attempts; retry re-runs it once fixed; stats counts", async () => {
    const queue = newQueue();
    await receiverFor(queue, { attempts: 2 }).receive(delivery("evt_dead"));
    let broken = true;
    const handled: number[] = [];
    worker(queue).onAny((_event, { attempt }) => {
      if (broken) throw new Error("downstream API refused the call");
      handled.push(attempt);
    });
    await expect.poll(async () => (await queue.getJob("event%3Aevt_dead"))?.finishedOn).toBeDefined();
    const target = ["--redis", `redis://127.0.0.1:${redis.port}`, "--queue", queue.name];
    const failed = await tidings(["queue", "failed", ...target]);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stdout).toMatch(/^id\s+type\s+attempts\s+last error\n/);
    expect(failed.stdout).toMatch(/event%3Aevt_dead\s+message\.delivered\s+2\s+downstream API refused the call/);
    expect((await tidings(["queue", "stats", ...target])).stdout).toMatch(/failed\s+1/);

    broken = false;
    const retried = await tidings(["queue", "retry", "event%3Aevt_dead", ...target]);
    expect([retried.code, retried.stdout]).toEqual([0, `1 job(s) back in ${queue.name}\n`]);
    await expect.poll(() => handled).toEqual([1]);
    const stats = await tidings(["queue", "stats", ...target]);
    expect(stats.stdout).toBe("waiting   0\nactive    0\ncompleted 1\nfailed    0\n");
    expect((await tidings(["queue", "failed", ...target])).stdout).toBe(`no failed jobs in ${queue.name}\n`);
  });

  it("retry --all, and clear errors for a missing engine option or both", async () => {
    const queue = newQueue();
    const target = ["--redis", `redis://127.0.0.1:${redis.port}`, "--queue", queue.name];
    expect((await tidings(["queue", "retry", "--all", ...target])).stdout).toBe(`0 job(s) back in ${queue.name}\n`);
    const neither = await tidings(["queue", "stats", "--queue", queue.name]);
    expect([neither.code, neither.stderr]).toEqual([
      1,
      "error: give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)\n",
    ]);
    const noIds = await tidings(["queue", "retry", ...target]);
    expect(noIds.stderr).toBe("error: give job ids or --all\n");
  });
});
