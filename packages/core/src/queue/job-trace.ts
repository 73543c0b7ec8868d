import type { DeliveryInfo } from "../receiver/handlers";

/**
 * The trace context a job carries from its enqueue to each of its runs: W3C Trace Context, as the `traceparent` and
 * `tracestate` headers would hold it. Plain data, so that core needs no tracing library: an instrumentation fills it
 * (`Enqueuer.onEnqueue`) and reads it back (`JobOutcome.trace`).
 */
export interface JobTraceContext {
  /** `00-<trace id, 32 hex>-<parent id, 16 hex>-<flags, 2 hex>` */
  traceparent: string;
  tracestate?: string;
}

/** What an enqueue hook learns before the job is written. */
export interface EnqueueInfo {
  /** The engine, as `messaging.system` names it: `bullmq`, `pg-boss`. */
  system: string;
  queue: string;
  jobId: string;
  delivery: DeliveryInfo;
}

/** What a hook gives back for one enqueue: the context the job carries, and what to call once the write settled. */
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

/** Sees each enqueue before the job is written; `undefined` when it has nothing to add. */
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
