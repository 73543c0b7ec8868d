import { Redis } from "ioredis";
import { startWorker } from "./worker";

// BullMQ workers need maxRetriesPerRequest: null on the connection they are given.
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
const queue = process.env.QUEUE ?? "deliveries";
const worker = startWorker({ redis, queue });
await worker.ready;
console.log(`BullMQ worker on queue ${queue}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.close(); // finishes the running jobs
    redis.disconnect();
  });
}
