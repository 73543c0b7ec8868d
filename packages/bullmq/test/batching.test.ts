import { BATCH_DEFAULTS } from "@tidings/core/dispatch";
import { Queue, type Telemetry } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { describeBatching } from "../../../test/support/queue-batch-suite";
import { RedisServer } from "../../../test/support/redis-server";
import { enqueueTo, jobIdFor } from "../src";

let redis: RedisServer;
let queues = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(() => redis?.remove());

const connection = () => ({ host: "127.0.0.1", port: redis.port });

/**
 * BullMQ's own telemetry hook, recording how many jobs each write to Redis held: an `add` holds one, an `addBulk`
 * (one pipeline) as many as its `bullmq.job.bulk.count`.
 */
function writeRecorder(writes: number[]): Telemetry {
  const context = {};
  return {
    contextManager: {
      active: () => context,
      with: (_context: unknown, fn: () => unknown) => fn(),
      getMetadata: () => "",
      fromMetadata: (active: unknown) => active,
    },
    tracer: {
      startSpan(name: string) {
        if (name.split(" ")[0] === "add") writes.push(1);
        return {
          setAttributes(attributes: Record<string, unknown>) {
            const count = attributes["bullmq.job.bulk.count"];
            if (typeof count === "number") writes.push(count);
          },
          setAttribute() {},
          addEvent() {},
          recordException() {},
          setSpanOnContext: (active: unknown) => active,
          end() {},
        };
      },
    },
  } as unknown as Telemetry;
}

describeBatching({
  name: "BullMQ",
  async open() {
    const writes: number[] = [];
    const queue = new Queue(`batch${++queues}`, { connection: connection(), telemetry: writeRecorder(writes) });
    queue.on("error", () => {}); // reconnection attempts while Redis is stopped
    const reader = new Redis(connection());
    reader.on("error", () => {});
    return {
      // Batching is off by default on BullMQ: on, with core's defaults, unless a test says otherwise.
      enqueuer: (settings) => enqueueTo(queue, { batch: BATCH_DEFAULTS, ...settings }),
      jobIdFor,
      stored: async (jobId) => (await reader.exists(`bull:${queue.name}:${jobId}`)) === 1,
      jobCount: async () => Object.values(await queue.getJobCounts()).reduce((sum, count) => sum + count, 0),
      writes: async () => [...writes],
      close: async () => {
        reader.disconnect();
        await queue.close();
      },
    };
  },
  stopServer: () => redis.stop(),
  startServer: () => redis.start(),
});
