import { type BatchOptions, createEnqueuer, type Enqueuer, type QueuedDelivery } from "@tidings/core/dispatch";
import type { BackoffOptions, JobsOptions } from "bullmq";
import { QUEUE_DEFAULTS } from "./defaults";
import { jobIdFor } from "./job-id";

/**
 * How `enqueueTo` writes jobs; each default is in {@link QUEUE_DEFAULTS}.
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
 *   backoff: { type: "exponential", delay: 5000 },
 *   keepCompletedSeconds: WEEK_SECONDS,
 * };
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, doneTtlMs: WEEK_SECONDS * 1000 });
 * receiver.onAny(enqueueTo(queue, options));
 * ```
 */
export interface EnqueueOptions {
  /** An enqueue slower than this fails, so the Receiver answers 5xx and the sender retries. Default 5000 ms. */
  timeoutMs?: number;
  /** Runs of a job before it stays in the failed set. Default 5. */
  attempts?: number;
  /** Delay between runs. Default `{ type: "exponential", delay: 1000 }`: 1 s, 2 s, 4 s, 8 s. */
  backoff?: BackoffOptions;
  /**
   * How long completed jobs are kept, in seconds. A job id refuses a duplicate only while its job exists, so keep
   * it at least as long as the Receiver remembers deliveries (`doneTtlMs`, 24 h by default). Default 86 400.
   */
  keepCompletedSeconds?: number;
  /** Also put the verified body bytes in the job (base64). Off by default: the body may hold personal data. */
  keepVerifiedBody?: boolean;
  /**
   * Group commit: deliveries that arrive together are added in one `addBulk` (one pipeline), and each is answered once
   * the batch holding its job is stored (`{ maxJobs, maxWaitMs }`, e.g. `BATCH_DEFAULTS`). Default `false`, one `add`
   * per delivery: measured, `addBulk` costs more per job than `add` (ioredis builds a pipeline object per call) and
   * Redis runs one script per job either way, so batching answered no more deliveries per second.
   */
  batch?: BatchOptions | false;
}

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
  const jobOptions: JobsOptions = {
    attempts: options.attempts ?? QUEUE_DEFAULTS.attempts,
    backoff: options.backoff ?? QUEUE_DEFAULTS.backoff,
    removeOnComplete: { age: options.keepCompletedSeconds ?? QUEUE_DEFAULTS.keepCompletedSeconds },
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
    batch: options.batch ?? QUEUE_DEFAULTS.batch,
    timeoutMs: options.timeoutMs ?? QUEUE_DEFAULTS.timeoutMs,
    keepVerifiedBody: options.keepVerifiedBody ?? QUEUE_DEFAULTS.keepVerifiedBody,
    describe: (deliveryKey) => `Adding the job for ${deliveryKey} to BullMQ queue ${queue.name}`,
  });
}
