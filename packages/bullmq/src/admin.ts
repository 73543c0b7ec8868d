import {
  type FailedDelivery,
  type FoundJob,
  guardConnection,
  type QueueAdmin,
  QueueAdminError,
  type QueueCounts,
  readableJobText,
  reasonOf,
  unknownQueue,
  withoutCredentials,
} from "@tidings/core/dispatch";
import { type Job, Queue } from "bullmq";
import { Redis } from "ioredis";
import { jobIdFor } from "./job-id";

/**
 * The part of a BullMQ `Queue` that the operations below use.
 *
 * @example
 * ```ts
 * import { type InspectedQueue, queueCounts } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * // A readiness check of your own: it takes any Queue, and reads nothing but counts.
 * export async function backlog(queue: InspectedQueue): Promise<number> {
 *   const { waiting, prioritized = 0, delayed } = await queueCounts(queue);
 *   return waiting + prioritized + delayed;
 * }
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * console.log(`${await backlog(queue)} deliveries to run`);
 * await queue.close();
 * ```
 */
export type InspectedQueue = Pick<Queue, "getFailed" | "getJob" | "getJobCounts">;

/**
 * Jobs that used up their attempts, oldest first: id, event type, runs, last error.
 *
 * @example
 * ```ts
 * import { listFailed } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * for (const job of await listFailed(queue, 20)) {
 *   console.log(job.id, job.type, job.deliveryKey, `${job.attempts} runs`, job.failedAt?.toISOString(), job.error);
 * }
 * await queue.close();
 * ```
 */
export async function listFailed(queue: InspectedQueue, limit = 100): Promise<FailedDelivery[]> {
  const jobs = (await queue.getFailed(0, limit - 1)) as Job[];
  return jobs.map((job) => ({
    id: job.id ?? "",
    type: job.name,
    deliveryKey: readableJobText(String(job.data?.deliveryKey ?? ""), typeof job.data?.event === "string"),
    attempts: job.attemptsMade,
    error: job.failedReason,
    ...(job.finishedOn ? { failedAt: new Date(job.finishedOn) } : {}),
  }));
}

/**
 * Moves failed jobs back to the queue with a fresh set of attempts; resolves to how many moved.
 *
 * @example
 * ```ts
 * import { listFailed, retryFailed } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * // The handler for failed messages is fixed: run its failed jobs again, and leave the others for now.
 * const failed = await listFailed(queue, 1000);
 * const ids = failed.filter((job) => job.type === "message.failed").map((job) => job.id);
 * console.log(`${await retryFailed(queue, ids)} job(s) back in the queue`); // or retryFailed(queue, "all")
 * await queue.close();
 * ```
 */
export async function retryFailed(queue: InspectedQueue, ids: readonly string[] | "all"): Promise<number> {
  const jobs =
    ids === "all"
      ? ((await queue.getFailed()) as Job[])
      : ((await Promise.all(ids.map((id) => queue.getJob(id)))) as (Job | undefined)[]);
  let moved = 0;
  for (const job of jobs) {
    if (!job || !(await job.isFailed())) continue;
    await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
    moved++;
  }
  return moved;
}

/**
 * The queue's jobs by state: waiting, prioritized, delayed, active, completed, failed.
 *
 * @example
 * ```ts
 * import { queueCounts } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const { waiting, active, failed } = await queueCounts(queue);
 * console.log(`${waiting} waiting, ${active} active, ${failed} failed`);
 * await queue.close();
 * ```
 */
export async function queueCounts(queue: InspectedQueue): Promise<QueueCounts> {
  const counts = await queue.getJobCounts("waiting", "prioritized", "delayed", "active", "completed", "failed");
  return {
    waiting: counts.waiting ?? 0,
    prioritized: counts.prioritized ?? 0,
    delayed: counts.delayed ?? 0,
    active: counts.active ?? 0,
    completed: counts.completed ?? 0,
    failed: counts.failed ?? 0,
  };
}

/**
 * The job with this id, or else the job of this delivery key.
 *
 * @example
 * ```ts
 * import { findJob } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * // A log line names the delivery: where is its job?
 * const found = await findJob(queue, "event:evt_123");
 * console.log(found ? `job ${found.jobId} is ${found.state}` : "no job for this delivery");
 * await queue.close();
 * ```
 */
export async function findJob(queue: InspectedQueue, idOrDeliveryKey: string): Promise<FoundJob | undefined> {
  for (const id of [idOrDeliveryKey, jobIdFor(idOrDeliveryKey)]) {
    const job = (await queue.getJob(id)) as Job | undefined;
    if (job?.id !== undefined) return { jobId: job.id, state: await job.getState() };
  }
  return undefined;
}

/**
 * Which queue `openQueueAdmin` opens: the Redis it lives in, its name, and BullMQ's key prefix.
 *
 * @example
 * ```ts
 * import { openQueueAdmin, type QueueAdminOptions } from "@tidings/bullmq";
 *
 * // Your tooling's settings: the app's Queues were created with `prefix: "tidings"`.
 * const deliveries: QueueAdminOptions = {
 *   redis: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
 *   queue: "deliveries",
 *   prefix: "tidings",
 * };
 *
 * const admin = await openQueueAdmin(deliveries);
 * try {
 *   console.log(await admin.failed(20));
 * } finally {
 *   await admin.close();
 * }
 * ```
 */
export interface QueueAdminOptions {
  /** A Redis URL: `redis://user:password@host:6379/0`. */
  redis: string;
  queue: string;
  /** BullMQ's key prefix, if your Queues set one. Default `"bull"`. */
  prefix?: string;
}

const ENGINE = "BullMQ";
/** Keys of which a queue that BullMQ has seen has at least one: its meta hash, or a list of jobs in some state. */
const QUEUE_KEYS = ["meta", "id", "wait", "paused", "prioritized", "delayed", "active", "completed", "failed"];

async function queueNames(connection: Redis, prefix: string): Promise<string[]> {
  const names = new Set<string>();
  let cursor = "0";
  do {
    const [next, keys] = await connection.scan(cursor, "MATCH", `${prefix}:*:meta`, "COUNT", 1000);
    for (const key of keys) names.add(key.slice(prefix.length + 1, -":meta".length));
    cursor = next;
  } while (cursor !== "0" && names.size < 50);
  return [...names].sort();
}

/**
 * Administers one BullMQ queue on a Redis connection of its own, closed by `close()`: what `tidings queue` runs. It
 * writes nothing but retries (not even the queue's meta key, so a misspelled name stays unknown), does not reconnect
 * and tries each command once. Rejects with a `QueueAdminError`: `unreachable` (Redis did not answer),
 * `unknown_queue`; an operation whose connection dropped rejects with `connection_lost`.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/bullmq";
 *
 * const admin = await openQueueAdmin({ redis: "redis://127.0.0.1:6379", queue: "deliveries" });
 * try {
 *   console.log(await admin.stats());
 * } finally {
 *   await admin.close();
 * }
 * ```
 */
export async function openQueueAdmin({ redis, queue: name, prefix = "bull" }: QueueAdminOptions): Promise<QueueAdmin> {
  const where = withoutCredentials(redis);
  const connection = new Redis(redis, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  // Each error is also the rejection of the command that met it: this listener only keeps ioredis from printing it
  // again as a stack trace, and keeps the cause of a refused connection (ioredis rejects with "Connection is closed").
  let lastError: unknown;
  connection.on("error", (error) => {
    lastError = error;
  });
  try {
    await connection.connect();
  } catch (error) {
    connection.disconnect();
    throw new QueueAdminError(
      "unreachable",
      `cannot reach Redis at ${where}: ${reasonOf(lastError ?? error)}`,
      { engine: ENGINE, where },
      { cause: lastError ?? error },
    );
  }
  const queue = new Queue(name, { connection, prefix, skipMetasUpdate: true });
  queue.on("error", () => {});
  const close = async () => {
    await queue.close().catch(() => {});
    connection.disconnect();
  };
  const guard = <Args extends unknown[], Result>(operation: (...args: Args) => Promise<Result>) =>
    guardConnection(operation, { engine: ENGINE, server: "Redis", where }, (error) =>
      connection.status === "ready" ? undefined : reasonOf(lastError ?? error),
    );
  try {
    const seen = await guard(() => connection.exists(...QUEUE_KEYS.map((key) => `${prefix}:${name}:${key}`)))();
    if (seen === 0) throw unknownQueue(ENGINE, where, name, await guard(() => queueNames(connection, prefix))());
  } catch (error) {
    await close();
    throw error;
  }
  return {
    engine: ENGINE,
    queue: name,
    failed: guard((limit?: number) => listFailed(queue, limit)),
    find: guard((idOrDeliveryKey: string) => findJob(queue, idOrDeliveryKey)),
    retry: guard((ids: readonly string[] | "all") => retryFailed(queue, ids)),
    stats: guard(() => queueCounts(queue)),
    close,
  };
}
