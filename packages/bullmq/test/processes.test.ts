import { fileURLToPath } from "node:url";
import type { QueuedDelivery } from "@tidings/core/dispatch";
import { Queue } from "bullmq";
import { afterAll, beforeAll } from "vitest";
import { describeHandOff } from "../../../test/support/queue-handoff-suite";
import { RedisServer } from "../../../test/support/redis-server";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.stop();
});

async function withQueue<T>(name: string, use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = new Queue(name, { connection: { host: "127.0.0.1", port: redis.port } });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

describeHandOff({
  name: "BullMQ",
  receiverScript: fileURLToPath(new URL("fixtures/receiver.ts", import.meta.url)),
  workerScript: fileURLToPath(new URL("fixtures/worker.ts", import.meta.url)),
  env: () => ({ REDIS_PORT: String(redis.port) }),
  async jobCount(name) {
    const counts = await withQueue(name, (queue) => queue.getJobCounts());
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  },
  async runningEventIds(name) {
    const jobs = await withQueue(name, (queue) => queue.getActive());
    return jobs.map((job) => ((job.data as QueuedDelivery).event as { id: string }).id);
  },
  stopServer: () => redis.stop(),
  startServer: () => redis.start(),
});
