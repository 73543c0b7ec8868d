import { fileURLToPath } from "node:url";
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

describeHandOff({
  name: "BullMQ",
  receiverScript: fileURLToPath(new URL("fixtures/receiver.ts", import.meta.url)),
  workerScript: fileURLToPath(new URL("fixtures/worker.ts", import.meta.url)),
  env: () => ({ REDIS_PORT: String(redis.port) }),
  async jobCount(name) {
    const queue = new Queue(name, { connection: { host: "127.0.0.1", port: redis.port } });
    const counts = await queue.getJobCounts();
    await queue.close();
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  },
  stopServer: () => redis.stop(),
  startServer: () => redis.start(),
});
