import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../../test/support/free-port";
import { describeQueueAdmin } from "../../../test/support/queue-admin-suite";
import { RedisServer } from "../../../test/support/redis-server";
import { jobIdFor, openQueueAdmin } from "../src";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(() => redis?.remove());

const connection = () => ({ host: "127.0.0.1", port: redis.port });

describeQueueAdmin({
  name: "BullMQ",
  open: (url, queue) => openQueueAdmin({ redis: url, queue }),
  url: () => `redis://127.0.0.1:${redis.port}`,
  deadUrl: async () => `redis://ops:s3cret@127.0.0.1:${await freePort()}`,
  jobIdFor,
  async seed(name) {
    const queue = new Queue(name, { connection: connection() });
    for (const key of ["event:evt_dead1", "event:evt_dead2"]) {
      await queue.add("message.delivered", { deliveryKey: key }, { jobId: jobIdFor(key), attempts: 1 });
    }
    let failures = 0;
    await new Promise<void>((resolve) => {
      const worker = new Worker(
        name,
        async () => {
          throw new Error("downstream refused");
        },
        { connection: connection() },
      );
      worker.on("failed", () => {
        if (++failures === 2) worker.close().then(resolve);
      });
    });
    await queue.add("message.sent", { deliveryKey: "event:evt_later" }, { jobId: "later", delay: 3_600_000 });
    await queue.add("message.sent", { deliveryKey: "event:evt_urgent" }, { jobId: "urgent", priority: 1 });
    await queue.add("message.sent", { deliveryKey: "event:evt_plain" }, { jobId: "plain" });
    await queue.close();
  },
  seededCounts: { waiting: 1, prioritized: 1, delayed: 1, active: 0, completed: 0, failed: 2 },
  async footprint() {
    const client = new Redis(connection());
    try {
      return (await client.keys("*")).sort();
    } finally {
      client.disconnect();
    }
  },
  stopServer: () => redis.stop(),
  startServer: () => redis.start(),
});
