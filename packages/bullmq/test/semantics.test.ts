import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeQueueSemantics } from "../../../test/support/queue-semantics-suite";
import { RedisServer } from "../../../test/support/redis-server";
import { createWorker, ENQUEUE_DEFAULTS, enqueueTo, jobIdFor } from "../src";

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

describeQueueSemantics({
  name: "BullMQ",
  async open() {
    const queue = new Queue(`q${++queues}`, { connection: connection() });
    queue.on("error", () => {}); // reconnection attempts while Redis is stopped
    return {
      name: queue.name,
      enqueuer: (settings) => enqueueTo(queue, { backoff: { type: "fixed", delay: 10 }, ...settings }),
      worker() {
        const worker = createWorker({ queue: queue.name, connection: connection(), logger: quiet });
        worker.worker.on("error", () => {});
        return worker;
      },
      jobIdFor,
      async job(id) {
        const job = await queue.getJob(id);
        if (!job) return undefined;
        return { state: await job.getState(), data: job.data, error: job.failedReason };
      },
      jobCount: async () => Object.values(await queue.getJobCounts()).reduce((sum, count) => sum + count, 0),
      addStray: async (id) => {
        await queue.add("message.sent", { hello: "world" }, { jobId: id, attempts: 1 });
      },
      cliTarget: ["--redis", `redis://127.0.0.1:${redis.port}`],
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

  it("jobs keep the documented defaults: 5 attempts, exponential backoff, completed kept 24 h, failed kept", async () => {
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
      attempts: ENQUEUE_DEFAULTS.attempts,
      backoff: ENQUEUE_DEFAULTS.backoff,
      removeOnComplete: { age: 86_400 },
      removeOnFail: false,
    });
    await queue.close();
  });
});
