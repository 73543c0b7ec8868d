import type { DeliveryContext } from "@tidings/core";
import type { BatchOptions } from "@tidings/core/dispatch";
import type { Writes } from "./writes";

export type EngineId = "bullmq" | "pg-boss";
export type WorkerKind = "bare" | "ours";

/** The parsed event, as the ideal route reads it. */
export interface ParsedEvent {
  id: string;
  type: string;
}

/** What the ideal route hands to the engine: the data `enqueueTo` puts in a job, written out by hand. */
export interface IdealJob {
  event: ParsedEvent;
  type: string;
  deliveryKey: string;
  timestamp: number;
  secretIndex: number;
  verifiedBodySha256: string;
}

export type JobHandler = (event: unknown) => void | Promise<void>;

/**
 * One engine as the benchmark processes use it, connected through the environment (REDIS_PORT, POSTGRES_URL).
 * Both hand-offs add jobs with the same id, attempts, backoff and retention; both workers run the same handler with
 * the same engine options.
 */
export interface EngineClient {
  /** Our hand-off: `enqueueTo` with its defaults, or with `batch` given; a Receiver handler. */
  enqueueTo(
    queue: string,
    options?: { batch: BatchOptions | false },
  ): (event: object, context: DeliveryContext) => Promise<void>;
  /** The hand-written hand-off: the same job data, id and options as `enqueueTo`'s. */
  idealSender(queue: string): Promise<(job: IdealJob) => Promise<unknown>>;
  /** `handler` on each job's event: through our `createWorker` ("ours"), or the engine's own worker ("bare"). */
  startWorker(kind: WorkerKind, queue: string, concurrency: number, handler: JobHandler): Promise<void>;
  /** Jobs in the queue, in any state. */
  jobs(queue: string): Promise<number>;
  /** The engine writes both hand-offs made to the queue so far, and the jobs they held: jobs per write. */
  writes(queue: string): Writes;
}

/** pg-boss is imported only by processes that run on Node ≥ 22. */
export async function openEngine(id: EngineId): Promise<EngineClient> {
  return id === "bullmq" ? (await import("./bullmq")).openBullmq() : (await import("./pg-boss")).openPgBoss();
}
