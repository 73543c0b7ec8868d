import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { afterAll, beforeAll } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeEffects } from "../../../test/support/queue-effects-suite";
import { RedisServer } from "../../../test/support/redis-server";
import { enqueueTo, jobIdFor } from "../src";

let redis: RedisServer;
let postgres: PostgresServer;
const queues: Queue[] = [];
beforeAll(async () => {
  [redis, postgres] = await Promise.all([RedisServer.start(), PostgresServer.start()]);
});
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.close()));
  await Promise.all([redis?.stop(), postgres?.remove()]);
});

function queueNamed(name: string): Queue {
  let queue = queues.find((one) => one.name === name);
  if (!queue) {
    queue = new Queue(name, { connection: { host: "127.0.0.1", port: redis.port } });
    queues.push(queue);
  }
  return queue;
}

describeEffects({
  name: "BullMQ",
  workerScript: fileURLToPath(new URL("fixtures/effects-worker.ts", import.meta.url)),
  env: () => ({ REDIS_PORT: String(redis.port) }),
  appDatabaseUrl: () => postgres.url,
  enqueuer: (name) => enqueueTo(queueNamed(name), { retryDelaySeconds: 0 }),
  async completed(name, deliveryKey) {
    return (await (await queueNamed(name).getJob(jobIdFor(deliveryKey)))?.getState()) === "completed";
  },
});
