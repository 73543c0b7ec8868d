import { within } from "../ground/within";
import type { DeliveryContext } from "../receiver/handlers";
import { type BatchOptions, GroupCommit } from "./group-commit";
import type { EnqueueHook, EnqueueTrace } from "./job-trace";
import { type QueuedDelivery, toQueuedDelivery } from "./queued-delivery";

/**
 * A Receiver handler that enqueues each event (what every engine's `enqueueTo` returns).
 *
 * @example
 * ```ts
 * import { enqueueTo } from "@tidings/bullmq";
 * import { createReceiver } from "@tidings/core";
 * import type { Enqueuer } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const enqueue: Enqueuer = enqueueTo(queue);
 * enqueue.onEnqueue(({ queue, jobId }) => {
 *   console.log(`enqueueing ${jobId} on ${queue}`);
 *   return undefined; // no trace context to add
 * });
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onAny(enqueue);
 * ```
 */
export interface Enqueuer {
  (event: object, context: Omit<DeliveryContext, "idempotencyKey">): Promise<void>;
  /** The engine, as `messaging.system` names it. */
  readonly system: string;
  readonly queue: string;
  /**
   * Lets an instrumentation see each enqueue before the job is written and put its trace context in the job
   * (`instrument(enqueuer)` of `@tidings/opentelemetry`). A hook that throws is ignored: telemetry never fails an
   * enqueue.
   */
  onEnqueue(hook: EnqueueHook): this;
}

/**
 * One job of a batch write.
 *
 * @example
 * ```ts
 * import type { BatchJob } from "@tidings/core/dispatch";
 * import type { Pool } from "pg";
 *
 * // An engine's writeBatch: every job of the batch in one statement, a job whose id is there already left as it is.
 * export function writeBatch(pool: Pool, queue: string) {
 *   return (jobs: readonly BatchJob[]) =>
 *     pool.query(
 *       `INSERT INTO jobs (id, queue, data) SELECT id, $1, data FROM unnest($2::text[], $3::jsonb[]) AS t(id, data)
 *        ON CONFLICT (id) DO NOTHING`,
 *       [queue, jobs.map((job) => job.jobId), jobs.map((job) => JSON.stringify(job.data))],
 *     );
 * }
 * ```
 */
export interface BatchJob {
  data: QueuedDelivery;
  jobId: string;
  context: Omit<DeliveryContext, "idempotencyKey">;
}

/**
 * What an engine package gives {@link createEnqueuer}.
 *
 * @example
 * ```ts
 * import { BATCH_DEFAULTS, createEnqueuer, type EnqueuerSettings, toJobText } from "@tidings/core/dispatch";
 * import type { Pool } from "pg";
 *
 * // A third engine over a PostgreSQL table: one row per job, the job id unique.
 * export function settingsFor(pool: Pool, queue: string): EnqueuerSettings {
 *   return {
 *     system: "my-engine",
 *     queue,
 *     jobIdFor: (deliveryKey) => toJobText(deliveryKey), // one id per key, lone surrogates escaped
 *     write: (data, jobId) =>
 *       pool.query("INSERT INTO jobs (id, queue, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
 *         jobId,
 *         queue,
 *         JSON.stringify(data),
 *       ]),
 *     batch: BATCH_DEFAULTS,
 *     timeoutMs: 5000,
 *     keepVerifiedBody: false,
 *     describe: (deliveryKey) => `Adding the job for ${deliveryKey} to queue ${queue}`,
 *   };
 * }
 *
 * export const enqueueTo = (pool: Pool, queue: string) => createEnqueuer(settingsFor(pool, queue));
 * ```
 */
export interface EnqueuerSettings {
  system: string;
  queue: string;
  /** The engine's job id for a delivery key: the same on every instance, never the same for two keys. */
  jobIdFor(deliveryKey: string): string;
  /** Writes one job; resolves once the engine stored it (or found the id already there). */
  write(data: QueuedDelivery, jobId: string, context: Omit<DeliveryContext, "idempotencyKey">): PromiseLike<unknown>;
  /**
   * Writes several jobs (distinct ids) in one engine operation that stores all of them or fails (BullMQ `addBulk`,
   * pg-boss `insert`); resolves once they are stored, a job whose id is already there left as it is. Without it,
   * each job is written on its own.
   */
  writeBatch?(jobs: readonly BatchJob[]): PromiseLike<unknown>;
  /**
   * Group commit: concurrent enqueues share one `writeBatch`, and each resolves once the write holding its job did
   * (`false`: one write per job). Default on, with {@link BATCH_DEFAULTS}.
   */
  batch?: BatchOptions | false;
  /** How long a write may take before the enqueue fails (the Receiver then answers 5xx). */
  timeoutMs: number;
  keepVerifiedBody: boolean;
  /** Names the write in the timeout's error, e.g. `Adding the job for <key> to BullMQ queue <name>`. */
  describe(deliveryKey: string): string;
}

/**
 * The enqueue every engine shares: job data, job id, the bound on the write, and the instrumentation hooks.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { createEnqueuer, type Enqueuer } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * // An engine package's enqueueTo, built on what every engine shares.
 * export function enqueueTo(queue: Queue): Enqueuer {
 *   return createEnqueuer({
 *     system: "bullmq",
 *     queue: queue.name,
 *     jobIdFor: (deliveryKey) => encodeURIComponent(deliveryKey),
 *     write: (data, jobId, { type }) => queue.add(type, data, { jobId, attempts: 5 }),
 *     timeoutMs: 5000,
 *     keepVerifiedBody: false,
 *     describe: (deliveryKey) => `Adding the job for ${deliveryKey} to BullMQ queue ${queue.name}`,
 *   });
 * }
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onAny(enqueueTo(queue));
 * ```
 */
export function createEnqueuer(settings: EnqueuerSettings): Enqueuer {
  const { system, queue, jobIdFor, write, writeBatch, batch, timeoutMs, keepVerifiedBody, describe } = settings;
  const hooks: EnqueueHook[] = [];
  const group =
    writeBatch === undefined || batch === false
      ? undefined
      : new GroupCommit<BatchJob>((jobs) => writeJobs(jobs, write, writeBatch), batch);
  const store = (
    data: QueuedDelivery,
    jobId: string,
    context: Omit<DeliveryContext, "idempotencyKey">,
    around?: EnqueueTrace,
  ) => {
    let writing: PromiseLike<unknown>;
    if (group !== undefined) writing = group.add({ data, jobId, context }, around?.around);
    else writing = around?.around ? around.around(() => write(data, jobId, context)) : write(data, jobId, context);
    return within(writing, timeoutMs, () => describe(context.deliveryKey));
  };
  const enqueue = (async (event: object, context: Omit<DeliveryContext, "idempotencyKey">): Promise<void> => {
    const data = toQueuedDelivery(event, context, keepVerifiedBody);
    const jobId = jobIdFor(context.deliveryKey);
    if (hooks.length === 0) {
      await store(data, jobId, context);
      return;
    }
    const traces = startTraces(hooks, { system, queue, jobId, delivery: context });
    const trace = traces.find((started) => started.trace !== undefined)?.trace;
    if (trace !== undefined) data.trace = trace;
    try {
      await store(
        data,
        jobId,
        context,
        traces.find((started) => started.around !== undefined),
      );
    } catch (error) {
      endTraces(traces, [error]);
      throw error;
    }
    endTraces(traces, []);
  }) as Enqueuer;
  Object.defineProperties(enqueue, {
    system: { value: system, enumerable: true },
    queue: { value: queue, enumerable: true },
    onEnqueue: {
      value(hook: EnqueueHook) {
        hooks.push(hook);
        return enqueue;
      },
    },
  });
  return enqueue;
}

function startTraces(hooks: readonly EnqueueHook[], info: Parameters<EnqueueHook>[0]): EnqueueTrace[] {
  const traces: EnqueueTrace[] = [];
  for (const hook of hooks) {
    try {
      const started = hook(info);
      if (started !== undefined) traces.push(started);
    } catch {
      // An instrumentation's failure is not the delivery's.
    }
  }
  return traces;
}

function endTraces(traces: readonly EnqueueTrace[], error: [] | [unknown]): void {
  for (const trace of traces) {
    try {
      trace.end(...error);
    } catch {
      // As above.
    }
  }
}

/** A batch of one as a plain write; a batch holding one id twice (two receivers sharing the enqueuer) writes it once. */
function writeJobs(
  jobs: BatchJob[],
  write: EnqueuerSettings["write"],
  writeBatch: NonNullable<EnqueuerSettings["writeBatch"]>,
): PromiseLike<unknown> {
  if (jobs.length === 1) {
    const [{ data, jobId, context }] = jobs as [BatchJob];
    return write(data, jobId, context);
  }
  const ids = new Set<string>();
  const distinct = jobs.filter(({ jobId }) => {
    if (ids.has(jobId)) return false;
    ids.add(jobId);
    return true;
  });
  return writeBatch(distinct);
}
