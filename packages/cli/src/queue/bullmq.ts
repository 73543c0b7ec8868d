import type { FailedDelivery } from "@tidings/core/dispatch";
import type { Queue } from "bullmq";
import type { Redis, RedisOptions } from "ioredis";
import { CliError } from "../io";
import { type AdminQueue, reasonOf, withoutCredentials } from "./admin";
import { loadEngine } from "./load";

interface TidingsBullmq {
  listFailed(queue: Queue, limit?: number): Promise<FailedDelivery[]>;
  retryFailed(queue: Queue, ids: readonly string[] | "all"): Promise<number>;
  jobIdFor(deliveryKey: string): string;
}

const INSTALL = "npm install @tidings/bullmq bullmq ioredis";
/** BullMQ's key prefix, unless the app set another one. */
const PREFIX = "bull";
/** Keys of which a queue that BullMQ has seen has at least one: its meta hash, or a list of jobs in some state. */
const QUEUE_KEYS = ["meta", "id", "wait", "paused", "prioritized", "delayed", "active", "completed", "failed"];

/** Opens a BullMQ queue on this Redis URL: one connection that does not reconnect, and errors as `CliError`s. */
export async function openBullmq(url: string, name: string): Promise<AdminQueue> {
  const tidings = await loadEngine<TidingsBullmq>("@tidings/bullmq", INSTALL);
  const { Queue } = await loadEngine<typeof import("bullmq")>("bullmq", INSTALL);
  const { Redis } = await loadEngine<{ Redis: new (url: string, options: RedisOptions) => Redis }>("ioredis", INSTALL);
  const where = withoutCredentials(url);
  // No reconnection and one try per command: an operator's command against an unreachable Redis fails at once.
  const connection = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  // Each error is also the rejection of the command that met it: these listeners only keep ioredis and BullMQ from
  // printing it a second time, as a stack trace.
  let lastError: unknown;
  connection.on("error", (error) => {
    lastError = error;
  });
  try {
    await connection.connect();
  } catch (error) {
    connection.disconnect();
    throw new CliError(`cannot reach Redis at ${where}: ${reasonOf(lastError ?? error)}`);
  }
  // skipMetasUpdate: a Queue otherwise writes the queue's meta key, which would make a misspelled name exist.
  const queue = new Queue(name, { connection, prefix: PREFIX, skipMetasUpdate: true });
  queue.on("error", () => {});

  const guarded =
    <Args extends unknown[], Result>(operation: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      try {
        return await operation(...args);
      } catch (error) {
        if (connection.status === "ready") throw error;
        throw new CliError(`lost the connection to Redis at ${where}: ${reasonOf(lastError ?? error)}`);
      }
    };

  const find = async (jobId: string) => {
    const job = await queue.getJob(jobId);
    return job?.id === undefined ? undefined : { jobId: job.id, state: await job.getState() };
  };

  return {
    engine: "BullMQ",
    exists: guarded(async () => (await connection.exists(...QUEUE_KEYS.map((key) => `${PREFIX}:${name}:${key}`))) > 0),
    queueNames: guarded(async () => {
      const names = new Set<string>();
      let cursor = "0";
      do {
        const [next, keys] = await connection.scan(cursor, "MATCH", `${PREFIX}:*:meta`, "COUNT", 1000);
        for (const key of keys) names.add(key.slice(PREFIX.length + 1, -":meta".length));
        cursor = next;
      } while (cursor !== "0" && names.size < 50);
      return [...names].sort();
    }),
    failed: guarded((limit: number) => tidings.listFailed(queue, limit)),
    find: guarded(async (idOrKey: string) => (await find(idOrKey)) ?? (await find(tidings.jobIdFor(idOrKey)))),
    retry: guarded((jobIds: readonly string[] | "all") => tidings.retryFailed(queue, jobIds)),
    stats: guarded(async () => {
      const counts = await queue.getJobCounts("waiting", "prioritized", "delayed", "active", "completed", "failed");
      return [
        { state: "waiting", count: counts.waiting ?? 0 },
        { state: "prioritized", count: counts.prioritized ?? 0 },
        { state: "delayed", count: counts.delayed ?? 0 },
        { state: "active", count: counts.active ?? 0 },
        { state: "completed", count: counts.completed ?? 0 },
        { state: "failed", count: counts.failed ?? 0 },
      ];
    }),
    async close() {
      await queue.close().catch(() => {});
      connection.disconnect();
    },
  };
}
