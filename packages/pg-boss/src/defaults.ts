import { BATCH_DEFAULTS, type SharedQueueDefaults } from "@tidings/core/dispatch";
import type { PgBossJobOptions } from "./enqueue";

/**
 * Every default of `enqueueTo` and `createWorker`, in one place: the code reads them from here, and sends the retries,
 * expiry and retention with every job, so what this object says is what pg-boss stores, whatever policy the queue was
 * created with. `@tidings/bullmq` has the same object, with the same keys; pg-boss's own defaults are in `pgBoss`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { enqueueTo, QUEUE_DEFAULTS } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * // Keep finished jobs, and so the dedup window, two weeks instead of one.
 * const keepCompletedSeconds = 2 * QUEUE_DEFAULTS.keepCompletedSeconds;
 * receiver.onAny(enqueueTo({ boss, queue: "deliveries" }, { keepCompletedSeconds }));
 * ```
 */
export const QUEUE_DEFAULTS = {
  /** An enqueue slower than this (checked to within an eighth of it) fails: 5xx, claim released, the sender retries. */
  timeoutMs: 5000,
  /** Runs of a job before it stays failed (pg-boss's `retryLimit` is one less). */
  attempts: 5,
  /** Seconds before the first retry (pg-boss's `retryDelay`). */
  retryDelaySeconds: 1,
  /** The delay doubles on each retry, and pg-boss adds up to as much again at random: 1–2 s, 2–4 s, 4–8 s, 8–16 s. */
  retryBackoff: "exponential",
  /**
   * How long a completed (or failed) job is kept (`deleteAfterSeconds`), in seconds: a week. Its id refuses a
   * duplicate only while its row is kept, so this is at least the Receiver's `doneTtlMs` (24 h).
   */
  keepCompletedSeconds: 604_800,
  /** The signed body bytes stay out of the job: they may hold personal data. */
  keepVerifiedBody: false,
  /** Group commit: deliveries that arrive together are written by one `insert`, up to 100 jobs, waiting at most 1 ms. */
  batch: BATCH_DEFAULTS,
  /** Jobs a worker fetches and runs at once. */
  concurrency: 1,
  /** pg-boss's own: `@tidings/bullmq` has no counterpart. */
  pgBoss: {
    /** A run still active after this long is failed and retried: how a dead worker's job runs again. */
    expireInSeconds: 900,
  },
} as const satisfies SharedQueueDefaults & { pgBoss: Required<PgBossJobOptions> };
