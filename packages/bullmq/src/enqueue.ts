import {
  type BatchOptions,
  createEnqueuer,
  type EngineOptionNames,
  type Enqueuer,
  type QueuedDelivery,
  resolveEnqueueOptions,
  type SharedEnqueueOptions,
} from "@tidings/core/dispatch";
import type { JobsOptions } from "bullmq";
import { QUEUE_DEFAULTS } from "./defaults";
import { jobIdFor } from "./job-id";

/**
 * How `enqueueTo` writes jobs: the options every engine takes, under the same names and units as on
 * `@tidings/pg-boss` (BullMQ's `enqueueTo` has none of its own); each default is in {@link QUEUE_DEFAULTS}.
 *
 * @example
 * ```ts
 * import { type EnqueueOptions, enqueueTo } from "@tidings/bullmq";
 * import { createReceiver } from "@tidings/core";
 * import { Queue } from "bullmq";
 *
 * const WEEK_SECONDS = 7 * 24 * 60 * 60;
 * // Handlers that call a slow partner API: more runs, further apart, and a week of dedup on both sides.
 * const options: EnqueueOptions = {
 *   attempts: 8,
 *   retryDelaySeconds: 5,
 *   keepCompletedSeconds: WEEK_SECONDS,
 * };
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, doneTtlMs: WEEK_SECONDS * 1000 });
 * receiver.onAny(enqueueTo(queue, options));
 * ```
 */
export interface EnqueueOptions extends SharedEnqueueOptions {
  /**
   * Group commit: deliveries that arrive together are added in one `addBulk` (one pipeline), and each is answered once
   * the batch holding its job is stored (`{ maxJobs, maxWaitMs }`, e.g. `BATCH_DEFAULTS`). Default `false`, one `add`
   * per delivery: measured, `addBulk` costs more per job than `add` (ioredis builds a pipeline object per call) and
   * Redis runs one script per job either way, so batching answered no more deliveries per second.
   */
  batch?: BatchOptions | false;
}

/** What `enqueueTo` refuses with a TypeError that names what replaces it. */
const ENQUEUE_NAMES: EngineOptionNames = {
  engine: "BullMQ",
  formerly: {
    backoff:
      '`retryDelaySeconds` (whole seconds; `backoff.delay` was in ms) and `retryBackoff` ("exponential" or "fixed")',
  },
};

/**
 * Where `enqueueTo` adds jobs: the part of a BullMQ `Queue` it uses.
 *
 * @example
 * ```ts
 * import { type EnqueueTarget, enqueueTo } from "@tidings/bullmq";
 * import { createReceiver } from "@tidings/core";
 * import { Queue } from "bullmq";
 *
 * // A Queue whose stored jobs are counted for your metrics: enqueueTo needs only its name, add and addBulk.
 * function counted(queue: Queue, count: (jobs: number) => void): EnqueueTarget {
 *   return {
 *     name: queue.name,
 *     add: async (name, data, options) => {
 *       const job = await queue.add(name, data, options);
 *       count(1);
 *       return job;
 *     },
 *     addBulk: async (jobs) => {
 *       const added = await queue.addBulk(jobs);
 *       count(jobs.length);
 *       return added;
 *     },
 *   };
 * }
 *
 * let enqueued = 0;
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.onAny(enqueueTo(counted(queue, (jobs) => (enqueued += jobs))));
 * ```
 */
export interface EnqueueTarget {
  readonly name: string;
  add(name: string, data: QueuedDelivery, options: JobsOptions): Promise<unknown>;
  addBulk(jobs: { name: string; data: QueuedDelivery; opts: JobsOptions }[]): Promise<unknown>;
}

/**
 * A Receiver handler that adds one BullMQ job per event, its id derived from the delivery key, and resolves once
 * Redis has stored it. With `batch`, deliveries that arrive together share one `addBulk`. A failed or slow enqueue
 * throws, so the Receiver answers 5xx, releases its claim and the sender retries; nothing is acknowledged that is not
 * enqueued.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { enqueueTo } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * queue.on("error", (error) => console.error(error.message)); // ioredis reconnecting: not a crash
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.onAny(enqueueTo(queue, { attempts: 10 }));
 * ```
 */
export function enqueueTo(queue: EnqueueTarget, options: EnqueueOptions = {}): Enqueuer {
  const resolved = resolveEnqueueOptions(options, QUEUE_DEFAULTS, ENQUEUE_NAMES);
  const jobOptions: JobsOptions = {
    attempts: resolved.attempts,
    backoff: { type: resolved.retryBackoff, delay: resolved.retryDelaySeconds * 1000 },
    removeOnComplete: { age: resolved.keepCompletedSeconds },
    removeOnFail: false,
  };
  return createEnqueuer({
    system: "bullmq",
    queue: queue.name,
    jobIdFor,
    write: (data, jobId, { type }) => queue.add(type, data, { ...jobOptions, jobId }),
    writeBatch: (jobs) =>
      queue.addBulk(
        jobs.map(({ data, jobId, context }) => ({ name: context.type, data, opts: { ...jobOptions, jobId } })),
      ),
    batch: resolved.batch,
    timeoutMs: resolved.timeoutMs,
    keepVerifiedBody: resolved.keepVerifiedBody,
    describe: (deliveryKey) => `Adding the job for ${deliveryKey} to BullMQ queue ${queue.name}`,
  });
}
