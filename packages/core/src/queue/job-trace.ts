import type { DeliveryInfo } from "../receiver/handlers";

/**
 * The trace context a job carries from its enqueue to each of its runs: W3C Trace Context, as the `traceparent` and
 * `tracestate` headers would hold it. Plain data, so that core needs no tracing library: an instrumentation fills it
 * (`Enqueuer.onEnqueue`) and reads it back (`JobOutcome.trace`).
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import type { JobTraceContext } from "@tidings/core/dispatch";
 *
 * // The trace id a job's runs share with its enqueue.
 * const traceId = (trace: JobTraceContext | undefined) => trace?.traceparent.split("-")[1];
 *
 * const worker = createWorker({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.onOutcome((outcome) => console.log(outcome.jobId, outcome.code, traceId(outcome.trace)));
 * ```
 */
export interface JobTraceContext {
  /** `00-<trace id, 32 hex>-<parent id, 16 hex>-<flags, 2 hex>` */
  traceparent: string;
  tracestate?: string;
}

/**
 * What an enqueue hook learns before the job is written.
 *
 * @example
 * ```ts
 * import { enqueueTo } from "@tidings/bullmq";
 * import type { EnqueueInfo } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * const describe = ({ system, queue, jobId, delivery }: EnqueueInfo) =>
 *   `${system} ${queue}: job ${jobId} for ${delivery.type} ${delivery.deliveryKey}`;
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * export const enqueue = enqueueTo(queue).onEnqueue((info) => {
 *   console.log(describe(info));
 *   return undefined;
 * });
 * ```
 */
export interface EnqueueInfo {
  /** The engine, as `messaging.system` names it: `bullmq`, `pg-boss`. */
  system: string;
  queue: string;
  jobId: string;
  delivery: Omit<DeliveryInfo, "idempotencyKey">;
}

/**
 * What a hook gives back for one enqueue: the context the job carries, and what to call once the write settled.
 *
 * @example
 * ```ts
 * import { randomBytes } from "node:crypto";
 * import type { EnqueueInfo, EnqueueTrace } from "@tidings/core/dispatch";
 *
 * // A hook that starts a trace per enqueue, carries it in the job, and logs how the write went.
 * export function traceEnqueue({ jobId }: EnqueueInfo): EnqueueTrace {
 *   const traceparent = `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`;
 *   const started = performance.now();
 *   return {
 *     trace: { traceparent },
 *     end: (error) => console.log(`job ${jobId} ${error ? "failed" : "stored"} in ${performance.now() - started} ms`),
 *   };
 * }
 * ```
 */
export interface EnqueueTrace {
  trace?: JobTraceContext | undefined;
  /**
   * Runs the engine's write, e.g. in the trace's context, so that spans the engine's client opens are children of
   * the enqueue's. Optional: without it the write runs as it is. A write of a batch of jobs runs in the `around` of
   * its first job that has one.
   */
  around?<T>(write: () => T): T;
  /** Called once, with the error when the write failed or timed out. */
  end(error?: unknown): void;
}

/**
 * Sees each enqueue before the job is written; `undefined` when it has nothing to add.
 *
 * @example
 * ```ts
 * import { enqueueTo } from "@tidings/bullmq";
 * import type { EnqueueHook } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * const slowEnqueues: EnqueueHook = ({ jobId }) => {
 *   const started = performance.now();
 *   return {
 *     end: () => {
 *       const ms = performance.now() - started;
 *       if (ms > 100) console.warn(`enqueueing ${jobId} took ${ms.toFixed(0)} ms`);
 *     },
 *   };
 * };
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * export const enqueue = enqueueTo(queue).onEnqueue(slowEnqueues);
 * ```
 */
export type EnqueueHook = (info: EnqueueInfo) => EnqueueTrace | undefined;

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** W3C Trace Context's limit is 32 list members; a longer value than this is not one a tracer wrote. */
const MAX_TRACESTATE = 512;

/** The trace context in job data, or undefined when there is none or it is not well-formed (never a failed job). */
export function readJobTrace(value: unknown): JobTraceContext | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent)) return undefined;
  if (typeof tracestate === "string" && tracestate.length <= MAX_TRACESTATE) return { traceparent, tracestate };
  return { traceparent };
}
