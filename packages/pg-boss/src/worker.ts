import type { EventMap, MessageEvents } from "@tidings/core";
import type { InTransaction, Transactions } from "@tidings/core/adapter";
import {
  type EngineOptionNames,
  pickWorkerOptions,
  QueueWorker,
  type SharedWorkerOptions,
  type WorkerContext,
} from "@tidings/core/dispatch";
import type { Job, JobResult, JobWithMetadata, PgBoss, SendOptions, WorkOptions } from "pg-boss";
import { QUEUE_DEFAULTS } from "./defaults";
import { jobIdFor } from "./job-id";

/**
 * pg-boss's own `WorkOptions`, in `createWorker`'s `pgBoss`: `pollingIntervalSeconds`, `priority`… (not those the
 * worker sets itself: `batchSize` is `concurrency`, and it settles each job on its own).
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { createWorker, type PgBossWorkOptions } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // A quiet queue that must still be picked up within a second.
 * const pgBoss: PgBossWorkOptions = { pollingIntervalSeconds: 1 };
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const worker = createWorker<MessageEvents>({ boss, queue: "deliveries", pgBoss });
 * worker.on("message.delivered", (event) => console.log(event.data.id));
 * ```
 */
export type PgBossWorkOptions = Omit<
  WorkOptions,
  "batchSize" | "localConcurrency" | "perJobResults" | "transactional" | "includeMetadata"
>;

/**
 * The part of a started PgBoss that a worker uses.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { createWorker, type WorkerBoss } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // Your workers' module: it starts them on whatever PgBoss the process has started.
 * export function startWorkers(boss: WorkerBoss) {
 *   const worker = createWorker<MessageEvents>({ boss, queue: "deliveries", concurrency: 8 });
 *   worker.on("message.delivered", (event) => console.log(event.data.id, "delivered"));
 *   return worker;
 * }
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * await startWorkers(boss).ready;
 * ```
 */
export type WorkerBoss = Pick<PgBoss, "createQueue" | "work" | "offWork" | "send" | "getJobById">;

/**
 * pg-boss's side of a worker: the PgBoss it polls with, the queue, and the id `boss.work()` gave it.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { createWorker, type PgBossWork } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const worker = createWorker<MessageEvents>({ boss, queue: "deliveries", pgBoss: { pollingIntervalSeconds: 30 } });
 * worker.on("message.delivered", (event) => console.log(event.data.id, "delivered"));
 * await worker.ready;
 *
 * // Jobs were just sent by hand: wake the worker now rather than at its next poll.
 * const work: PgBossWork = worker.engineWorker;
 * if (work.id) boss.notifyWorker(work.id);
 * ```
 */
export interface PgBossWork {
  readonly boss: WorkerBoss;
  readonly queue: string;
  /** For `boss.notifyWorker(id)` or to find it in `boss.getWipData()`; `undefined` until `ready`. */
  readonly id: string | undefined;
}

/**
 * What `createWorker` takes: the options every engine takes (`queue`, `concurrency`, and core's `logger`, `order`,
 * `store`, `orderWaitMs`, `leaseMs`, `doneTtlMs`), your started PgBoss, and pg-boss's own work options in `pgBoss`.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { type CreateWorkerOptions, createWorker } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 *
 * // Many jobs at once, and a quicker poll while the queue is quiet.
 * const options: CreateWorkerOptions<MessageEvents> = {
 *   boss,
 *   queue: "deliveries",
 *   concurrency: 16,
 *   pgBoss: { pollingIntervalSeconds: 1 },
 * };
 * const worker = createWorker(options);
 * worker.on("message.failed", (event, context) => console.warn(event.data.id, "failed", context.deliveryKey));
 * await worker.ready;
 * ```
 */
export interface CreateWorkerOptions<Events extends EventMap = MessageEvents> extends SharedWorkerOptions<Events> {
  /** Your started PgBoss instance. */
  boss: WorkerBoss;
  /**
   * Jobs run at once: each fetch takes up to this many, runs them together and settles each on its own; the next
   * fetch follows at once while fetches come back full. Default 1.
   */
  concurrency?: number;
  /** pg-boss's own work options, which `@tidings/bullmq` has no counterpart for: `pollingIntervalSeconds`… */
  pgBoss?: PgBossWorkOptions;
}

/** Where `createWorker`'s own options are, for its checks and messages. */
const WORKER_NAMES: EngineOptionNames = { engine: "pg-boss", group: "pgBoss", handles: ["boss"] };

/**
 * A pg-boss worker that runs each job's delivery through the same typed handlers as a Receiver.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { createWorker, type DeliveryWorker } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // On SIGTERM, the workers finish their running jobs, then the PgBoss they share stops.
 * export function stopOnSigterm(boss: PgBoss, workers: DeliveryWorker<MessageEvents>[]): void {
 *   process.once("SIGTERM", async () => {
 *     await Promise.all(workers.map((worker) => worker.close()));
 *     await boss.stop();
 *   });
 * }
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const worker = createWorker<MessageEvents>({ boss, queue: "deliveries" });
 * worker.on("message.delivered", (event) => console.log(event.data.id, "delivered"));
 * worker.onError((error, info) => console.error(`job ${info.jobId} run ${info.attempt} failed:`, error));
 * stopOnSigterm(boss, [worker]);
 * await worker.ready;
 * ```
 */
export class DeliveryWorker<
  Events extends EventMap = MessageEvents,
  Context extends WorkerContext = WorkerContext,
> extends QueueWorker<Events, Context> {
  /** pg-boss's side of this worker: its PgBoss, its queue and its worker id. */
  readonly engineWorker: PgBossWork;
  /** Resolves once the worker polls the queue (created if missing); rejects, and logs, if it could not start. */
  readonly ready: Promise<void>;
  readonly #stop: () => Promise<void>;

  constructor(options: CreateWorkerOptions<Events>) {
    const { queue, concurrency, worker } = pickWorkerOptions(options, QUEUE_DEFAULTS, WORKER_NAMES);
    super(worker, { system: "pg-boss", queue });
    const { boss } = options;
    const workOptions = {
      ...options.pgBoss,
      batchSize: concurrency,
      perJobResults: true,
      burstWhenBatchFull: true,
    } as const;
    // retryCount goes up each time the job is claimed again, a rerun after its worker died included.
    const settle = async (job: Job<unknown>): Promise<JobResult> => {
      try {
        const result = await this.run(job.data, { id: job.id, attempt: job.retryCount + 1 });
        if (result === "deferred") {
          // pg-boss has no retry that leaves the count alone: the job goes back as a copy that starts later, under an
          // id derived from this one (a rerun of this job re-sends nothing), and this one completes.
          // The copy carries the settings enqueueTo gave the job (retries, expiry, retention): read from its row only
          // here, as deferring is rare, rather than fetched with every job.
          const stored = await boss.getJobById(queue, job.id);
          if (!stored) throw new Error(`pg-boss has no job ${job.id} in ${queue} to defer`);
          const startAfter = Math.ceil(this.deferMs / 1000);
          await boss.send(queue, job.data as object, {
            ...settingsOf(stored),
            id: jobIdFor(`deferred:${job.id}`),
            startAfter,
          });
        }
        return { id: job.id, status: "completed" };
      } catch (error) {
        return { id: job.id, status: "failed", output: errorOutput(error) };
      }
    };
    const workId = boss
      .createQueue(queue)
      .then(() => boss.work(queue, workOptions, (jobs: Job<unknown>[]) => Promise.all(jobs.map(settle))));
    let id: string | undefined;
    this.engineWorker = {
      boss,
      queue,
      get id() {
        return id;
      },
    };
    this.ready = workId.then((started) => {
      id = started;
    });
    this.ready.catch((error: unknown) =>
      (worker.logger ?? console).error("[tidings] the pg-boss worker did not start", error),
    );
    this.#stop = async () => boss.offWork(queue, { id: await workId, wait: true });
  }

  /** Stops taking jobs and resolves once the running ones have finished. */
  close(): Promise<void> {
    return this.#stop();
  }
}

/** What a job was sent with, for its deferred copy: the options enqueueTo sets, and its priority. */
function settingsOf(job: JobWithMetadata<unknown>): SendOptions {
  const { retryLimit, retryDelay, retryBackoff, retryDelayMax, expireInSeconds, deleteAfterSeconds, priority } = job;
  return {
    retryLimit,
    retryDelay,
    retryBackoff,
    ...(retryDelayMax == null ? {} : { retryDelayMax }),
    expireInSeconds,
    deleteAfterSeconds,
    priority,
  };
}

/** What pg-boss keeps as a failed run's output, as it does for a thrown error: `tidings queue failed` shows `message`. */
function errorOutput(error: unknown): { message: string; name?: string; stack?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  return { message: error.message, name: error.name, ...(error.stack ? { stack: error.stack } : {}) };
}

/**
 * Starts a worker whose handlers run in a database transaction with the job's inbox row (`transactions` and a
 * `PostgresStore` from `@tidings/postgres`): `ctx.transaction` is the library's own handle, and a job run again
 * after its worker died completes without running the handlers if their writes committed.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/pg-boss";
 * import { PostgresStore, pgTransactions } from "@tidings/postgres";
 * import pg from "pg";
 * import { PgBoss } from "pg-boss";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const worker = createWorker({
 *   boss,
 *   queue: "deliveries",
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
 * import type { MessageEvents } from "@tidings/core";
 * import { createWorker } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const worker = createWorker<MessageEvents>({ boss, queue: "deliveries", concurrency: 8 });
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
