/**
 * The one table of what a worker's run of a job can come to, and what the engine then does with the job: `complete`
 * it, `put back` it for later without using up an attempt, or `fail` it (retried while attempts remain).
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import { JOB_OUTCOMES } from "@tidings/core/dispatch";
 *
 * const worker = createWorker({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * // Count the runs an engine will retry or give up on: a handler failed, or a job `enqueueTo` did not write.
 * worker.onOutcome(({ code, jobId }) => {
 *   if (JOB_OUTCOMES[code] === "fail") console.warn(`job ${jobId}: ${code}`);
 * });
 * ```
 */
export const JOB_OUTCOMES = /* @__PURE__ */ Object.freeze({
  completed: "complete",
  // With `order`: at or below its object's handled position; handlers not run.
  stale: "complete",
  // With `order`: a rerun of a job already handled; handlers not run.
  duplicate: "complete",
  // With `order`: its object busy past `orderWaitMs`.
  deferred: "put back",
  // A handler threw or rejected.
  failed: "fail",
  // Job data that `enqueueTo` did not write: no handler can run it, and a retry will not change it.
  invalid_job: "fail",
} as const);

/**
 * Every code a run of a job is reported with (`onOutcome`).
 *
 * @example
 * ```ts
 * import type { JobOutcomeCode } from "@tidings/core/dispatch";
 *
 * // Runs counted by outcome, for a dashboard.
 * export const runs = new Map<JobOutcomeCode, number>();
 * export const count = (code: JobOutcomeCode) => runs.set(code, (runs.get(code) ?? 0) + 1);
 * ```
 */
export type JobOutcomeCode = keyof typeof JOB_OUTCOMES;

/**
 * What one run of a job came to, besides a failure (a rejection): the engine completes the job, except a `deferred`
 * one, which it puts back for later without counting an attempt.
 *
 * @example
 * ```ts
 * import type { JobRunResult } from "@tidings/core/dispatch";
 *
 * // What an engine package does with a run's result.
 * export const engineAction = (result: JobRunResult) => (result === "deferred" ? "move to delayed" : "complete");
 * ```
 */
export type JobRunResult = {
  [Code in JobOutcomeCode]: (typeof JOB_OUTCOMES)[Code] extends "fail" ? never : Code;
}[JobOutcomeCode];
