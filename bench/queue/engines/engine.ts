import type { DeliveryContext } from "@tidings/core";

export type EngineId = "bullmq" | "pg-boss";
export type WorkerKind = "bare" | "ours";

/** What the ideal route hands to the engine: the parsed event. */
export interface ParsedEvent {
  id: string;
  type: string;
}

export type JobHandler = (event: unknown) => void | Promise<void>;

/**
 * One engine as the benchmark processes use it, connected through the environment (REDIS_PORT, POSTGRES_URL).
 * Both hand-offs add jobs with the same id, attempts, backoff and retention; both workers run the same handler with
 * the same engine options.
 */
export interface EngineClient {
  /** Our hand-off: `enqueueTo` with its defaults, a Receiver handler. */
  enqueueTo(queue: string): (event: object, context: DeliveryContext) => Promise<void>;
  /** The hand-written hand-off: the event as the job's data. */
  idealSender(queue: string): Promise<(event: ParsedEvent) => Promise<unknown>>;
  /** `handler` on each job's event: through our `createWorker` ("ours"), or the engine's own worker ("bare"). */
  startWorker(kind: WorkerKind, queue: string, concurrency: number, handler: JobHandler): Promise<void>;
  /** Jobs in the queue, in any state. */
  jobs(queue: string): Promise<number>;
}

/** pg-boss is imported only by processes that run on Node ≥ 22. */
export async function openEngine(id: EngineId): Promise<EngineClient> {
  return id === "bullmq" ? (await import("./bullmq")).openBullmq() : (await import("./pg-boss")).openPgBoss();
}

/** The delivery key, hence the job id, that the Receiver derives from an event with an id. */
export const deliveryKeyOf = (event: ParsedEvent) => `event:${event.id}`;
