import type { EventMap, MessageEvents } from "@tidings/core";
import type { InTransaction, Transactions } from "@tidings/core/adapter";
import {
  type EngineOptionNames,
  pickWorkerOptions,
  QueueWorker,
  type SharedWorkerOptions,
  type WorkerContext,
} from "@tidings/core/dispatch";
import { DelayedError, type Job, Worker, type WorkerOptions } from "bullmq";
import { QUEUE_DEFAULTS } from "./defaults";

/**
 * What `createWorker` takes: the options every engine takes (`queue`, `concurrency`, and core's `logger`, `order`,
 * `store`, `orderWaitMs`, `leaseMs`, `doneTtlMs`), the Redis `connection` the worker runs on, and BullMQ's own
 * worker options in `bullmq`.
 *
 * @example
 * ```ts
 * import { type CreateWorkerOptions, createWorker } from "@tidings/bullmq";
 * import type { MessageEvents } from "@tidings/core";
 *
 * // The options every worker process of the app starts with, in one module.
 * export const workerOptions: CreateWorkerOptions<MessageEvents> = {
 *   queue: "deliveries",
 *   connection: { host: process.env.REDIS_HOST ?? "127.0.0.1", port: 6379 },
 *   concurrency: 8,
 *   bullmq: { lockDuration: 60_000 }, // handlers that call slow APIs: each job's lock lasts a minute between renewals
 * };
 *
 * const worker = createWorker(workerOptions);
 * worker.on("message.failed", (event, context) => console.warn(event.data.id, "failed", context.deliveryKey));
 * await worker.ready;
 * ```
 */
export interface CreateWorkerOptions<Events extends EventMap = MessageEvents> extends SharedWorkerOptions<Events> {
  /** Where Redis is: BullMQ's `connection`, options or an ioredis client (whose `maxRetriesPerRequest` is `null`). */
  connection: WorkerOptions["connection"];
  /**
   * BullMQ's own `WorkerOptions`, which `@tidings/pg-boss` has no counterpart for: `lockDuration`, `stalledInterval`,
   * `maxStalledCount`, `prefix`, `limiter`, `autorun`…
   */
  bullmq?: Omit<WorkerOptions, "connection" | "concurrency">;
}

/** Where `createWorker`'s own options are, for its checks and messages. */
const WORKER_NAMES: EngineOptionNames = { engine: "BullMQ", group: "bullmq", handles: ["connection"] };

/**
 * A BullMQ worker that runs each job's delivery through the same typed handlers as a Receiver.
 *
 * @example
 * ```ts
 * import { createWorker, type DeliveryWorker } from "@tidings/bullmq";
 * import type { MessageEvents } from "@tidings/core";
 *
 * // On SIGTERM, every worker of the process stops taking jobs and finishes its running ones.
 * export function closeOnSigterm(workers: DeliveryWorker<MessageEvents>[]): void {
 *   process.once("SIGTERM", () => void Promise.all(workers.map((worker) => worker.close())));
 * }
 *
 * const worker = createWorker<MessageEvents>({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.on("message.delivered", (event) => console.log(event.data.id));
 * worker.engineWorker.on("error", (error) => console.error(error.message)); // Redis reconnecting: not a crash
 * closeOnSigterm([worker]);
 * await worker.ready;
 * ```
 */
export class DeliveryWorker<
  Events extends EventMap = MessageEvents,
  Context extends WorkerContext = WorkerContext,
> extends QueueWorker<Events, Context> {
  /** BullMQ's side of this worker: its `Worker`, for its events (`completed`, `failed`, `error`…). */
  readonly engineWorker: Worker;
  /** Resolves once the worker is connected to Redis and takes jobs. */
  readonly ready: Promise<void>;

  constructor(options: CreateWorkerOptions<Events>) {
    const { queue, concurrency, worker } = pickWorkerOptions(options, QUEUE_DEFAULTS, WORKER_NAMES);
    super(worker, { system: "bullmq", queue });
    // attemptsStarted counts every run, a rerun after the worker died included; attemptsMade only failed ones.
    this.engineWorker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const attempt = Math.max(job.attemptsStarted, job.attemptsMade + 1);
        if ((await this.run(job.data, { id: job.id ?? "", attempt })) !== "deferred") return;
        // Its object is busy: back to the delayed set, which BullMQ does not count as a failed attempt.
        await job.moveToDelayed(Date.now() + this.deferMs, token);
        throw new DelayedError();
      },
      { ...options.bullmq, connection: options.connection, concurrency },
    );
    this.ready = this.engineWorker.waitUntilReady().then(() => undefined);
    // A connection that fails is reported as the Worker's `error` event; only a close before it connected rejects.
    this.ready.catch(() => {});
  }

  /** Stops taking jobs and resolves once the running ones have finished. */
  close(): Promise<void> {
    return this.engineWorker.close();
  }
}

/**
 * Starts a worker whose handlers run in a database transaction with the job's inbox row (`transactions` and a
 * `PostgresStore` from `@tidings/postgres`): `ctx.transaction` is the library's own handle, and a job run again
 * after its worker died completes without running the handlers if their writes committed.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import { PostgresStore, pgTransactions } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const worker = createWorker({
 *   queue: "deliveries",
 *   connection: { host: "127.0.0.1", port: 6379 },
 *   store: new PostgresStore({ client: pool }),
 *   transactions: pgTransactions(pool),
 * });
 * worker.on("message.failed", async (event, ctx) => {
 *   await ctx.transaction.query("insert into failures (message_id) values ($1)", [event.data.id]);
 * });
 * await worker.ready;
 * ```
 */
export function createWorker<Events extends EventMap = MessageEvents, Tx = unknown>(
  options: CreateWorkerOptions<Events> & { transactions: Transactions<Tx> },
): DeliveryWorker<Events, WorkerContext & InTransaction<Tx>>;
/**
 * Starts a worker on the queue; register handlers right away (`worker.on(type, handler)`), before any await.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import type { MessageEvents } from "@tidings/core";
 *
 * const worker = createWorker<MessageEvents>({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.on("message.delivered", (event, context) => console.log(event.data.id, context.attempt));
 * await worker.ready;
 * ```
 */
export function createWorker<Events extends EventMap = MessageEvents>(
  options: CreateWorkerOptions<Events>,
): DeliveryWorker<Events>;
export function createWorker<Events extends EventMap = MessageEvents>(
  options: CreateWorkerOptions<Events>,
): DeliveryWorker<Events> {
  return new DeliveryWorker<Events>(options);
}
