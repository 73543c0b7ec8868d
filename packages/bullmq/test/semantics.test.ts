import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeQueueSemantics } from "../../../test/support/queue-semantics-suite";
import { RedisServer } from "../../../test/support/redis-server";
import * as bullmq from "../src";
import {
  type CreateWorkerOptions,
  type DeliveryWorker,
  type EnqueueOptions,
  type EnqueueTarget,
  enqueueTo,
  jobIdFor,
  QUEUE_DEFAULTS,
} from "../src";

let redis: RedisServer;
let queues = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.stop();
});

const connection = () => ({ host: "127.0.0.1", port: redis.port });
const quiet = { error() {} };

describeQueueSemantics<EnqueueTarget, EnqueueOptions, CreateWorkerOptions>({
  name: "BullMQ",
  group: "bullmq",
  pkg: bullmq,
  async open() {
    const queue = new Queue(`q${++queues}`, { connection: connection() });
    queue.on("error", () => {}); // reconnection attempts while Redis is stopped
    return {
      name: queue.name,
      target: queue,
      workerOptions: { queue: queue.name, connection: connection(), logger: quiet },
      async takesJobs(worker) {
        const { engineWorker } = worker as DeliveryWorker;
        return engineWorker.isRunning() && engineWorker.closing === undefined;
      },
      async job(id) {
        const job = await queue.getJob(id);
        if (!job) return undefined;
        return { state: await job.getState(), data: job.data, error: job.failedReason };
      },
      async settingsOf(id) {
        const job = await queue.getJob(id);
        if (!job) return undefined;
        const { attempts, backoff, removeOnComplete } = job.opts;
        const { type, delay } = backoff as { type: "exponential" | "fixed"; delay: number };
        return {
          attempts: attempts as number,
          retryDelaySeconds: delay / 1000,
          retryBackoff: type,
          keepCompletedSeconds: (removeOnComplete as { age: number }).age,
        };
      },
      jobCount: async () => Object.values(await queue.getJobCounts()).reduce((sum, count) => sum + count, 0),
      addStray: async (id) => {
        await queue.add("message.sent", { hello: "world" }, { jobId: id, attempts: 1 });
      },
      cliTarget: ["--redis", `redis://127.0.0.1:${redis.port}`],
      openAdmin: () => bullmq.openQueueAdmin({ redis: `redis://127.0.0.1:${redis.port}`, queue: queue.name }),
      close: () => queue.close(),
    };
  },
  stopServer: () => redis.stop(),
  startServer: () => redis.start(),
});

describe("BullMQ specifics", () => {
  it("job ids: the delivery key with ':' and '%' percent-encoded, so distinct keys never share an id", () => {
    expect(jobIdFor("event:evt_1")).toBe("event%3Aevt_1");
    expect(jobIdFor("event:a%3Ab")).toBe("event%3Aa%253Ab");
    expect(jobIdFor("event:a%3Ab")).not.toBe(jobIdFor("event:a:b"));
  });

  it("jobs get QUEUE_DEFAULTS' retries as BullMQ's backoff, in ms, and failed jobs are kept", async () => {
    const queue = new Queue(`q${++queues}`, { connection: connection() });
    const context = {
      type: "message.sent",
      deliveryKey: "event:evt_opts",
      timestamp: 1,
      secretIndex: 0,
      verifiedBody: new Uint8Array(),
      headers: {},
    };
    await enqueueTo(queue)({ id: "evt_opts" }, context);
    const job = await queue.getJob(jobIdFor("event:evt_opts"));
    expect(job?.opts).toMatchObject({
      attempts: QUEUE_DEFAULTS.attempts,
      backoff: { type: QUEUE_DEFAULTS.retryBackoff, delay: QUEUE_DEFAULTS.retryDelaySeconds * 1000 },
      removeOnComplete: { age: QUEUE_DEFAULTS.keepCompletedSeconds },
      removeOnFail: false,
    });
    await queue.close();
  });

  it("a worker runs QUEUE_DEFAULTS.concurrency jobs at once unless told otherwise", async () => {
    const worker = bullmq.createWorker({
      queue: "q",
      connection: { ...connection(), lazyConnect: true },
      bullmq: { autorun: false },
    });
    const chosen = bullmq.createWorker({
      queue: "q",
      connection: { ...connection(), lazyConnect: true },
      bullmq: { autorun: false },
      concurrency: 4,
    });
    expect([worker.engineWorker.concurrency, chosen.engineWorker.concurrency]).toEqual([QUEUE_DEFAULTS.concurrency, 4]);
    await Promise.all([worker.close(), chosen.close()]);
  });

  it("BullMQ's own worker options go in `bullmq`; given at the top, as before, they are refused naming that place", async () => {
    const base = { queue: "q", connection: { ...connection(), lazyConnect: true } };
    const worker = bullmq.createWorker({ ...base, bullmq: { autorun: false, lockDuration: 7000, prefix: "mine" } });
    expect([worker.engineWorker.opts.lockDuration, worker.engineWorker.opts.prefix]).toEqual([7000, "mine"]);
    await worker.close();
    for (const key of ["lockDuration", "stalledInterval", "autorun"]) {
      expect(() => bullmq.createWorker({ ...base, [key]: 1000 } as CreateWorkerOptions)).toThrow(
        new TypeError(
          `createWorker: \`${key}\` is not an option every engine takes (logger, order, store, orderWaitMs, leaseMs, doneTtlMs, transactions, queue, concurrency), if it is BullMQ's own, it goes in \`bullmq: { ${key} }\``,
        ),
      );
    }
  });

  it("the former `backoff` (delay in ms) is refused at setup, naming retryDelaySeconds and retryBackoff", () => {
    const queue = new Queue("q", { connection: { ...connection(), lazyConnect: true } });
    expect(() => enqueueTo(queue, { backoff: { type: "fixed", delay: 50 } } as EnqueueOptions)).toThrow(
      new TypeError(
        'enqueueTo: `backoff` is now `retryDelaySeconds` (whole seconds; `backoff.delay` was in ms) and `retryBackoff` ("exponential" or "fixed")',
      ),
    );
    return queue.close();
  });
});
