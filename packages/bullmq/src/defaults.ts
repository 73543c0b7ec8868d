import type { SharedQueueDefaults } from "@tidings/core/dispatch";

/**
 * Every default of `enqueueTo` and `createWorker`, in one place: the code reads them from here, so what this object
 * says is what BullMQ receives. `@tidings/pg-boss` has the same object, with the same keys.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { enqueueTo, QUEUE_DEFAULTS } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * // Keep completed jobs, and so the dedup window, a week instead of a day.
 * receiver.onAny(enqueueTo(queue, { keepCompletedSeconds: 7 * QUEUE_DEFAULTS.keepCompletedSeconds }));
 * ```
 */
export const QUEUE_DEFAULTS = {
  /** An enqueue slower than this (checked to within an eighth of it) fails: 5xx, claim released, the sender retries. */
  timeoutMs: 5000,
  /** Runs of a job before it stays in the failed set. */
  attempts: 5,
  /** Seconds before the first retry (BullMQ's `backoff.delay`, in ms, is 1000 times this). */
  retryDelaySeconds: 1,
  /** The delay doubles on each retry: 1 s, 2 s, 4 s, 8 s. */
  retryBackoff: "exponential",
  /**
   * How long a completed job is kept (`removeOnComplete.age`), in seconds: a day. Its id refuses a duplicate only
   * while it is kept, so this is at least the Receiver's `doneTtlMs` (24 h). Failed jobs are kept until retried.
   */
  keepCompletedSeconds: 86_400,
  /** The signed body bytes stay out of the job: they may hold personal data. */
  keepVerifiedBody: false,
  /** One `add` per delivery: measured, `addBulk` answered no more deliveries per second. */
  batch: false,
  /** Jobs a worker runs at once. */
  concurrency: 1,
} as const satisfies SharedQueueDefaults;
