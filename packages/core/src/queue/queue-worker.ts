import type { DeliveryEvent } from "../event";
import type { EventMap, MessageEvents } from "../event-map";
import { errorFacts, type Logger, type SafeLogger, safeLogger } from "../ground/logger";
import { positiveInteger } from "../ground/whole-numbers";
import { encodeLabel, endpointKey } from "../receiver/delivery-key";
import { Dispatcher, type ErrorListener, notifyListeners } from "../receiver/dispatcher";
import type { AnyEvent, Handler } from "../receiver/handlers";
import { DEFAULT_DONE_TTL_MS, DEFAULT_LEASE_MS } from "../receiver/options";
import { claimInOrder, type EventOrder, orderWaitMs, positionOf } from "../receiver/order";
import { type HandlerRun, type OutcomeListener, preciseNow } from "../receiver/outcome";
import {
  type DeliveryStore,
  type ObjectPosition,
  type OrderedDeliveryStore,
  requireOrderedStore,
} from "../store/delivery-store";
import { renewWhileRunning } from "../store/lease-renewal";
import { settleWithin } from "../store/settle-within";
import {
  checkTransactions,
  HandlersFailed,
  LEASE_LAPSED,
  requireTransactionalStore,
  type TransactionalStore,
  type Transactions,
} from "../store/transactions";
import type { JobOutcomeCode, JobRunResult } from "./job-outcomes";
import type { JobTraceContext } from "./job-trace";
import { type JobRun, type ReadJob, readQueuedDelivery, type WorkerContext } from "./queued-delivery";

/**
 * Passed to a worker's `onError` listeners: which job failed, and how.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import type { WorkerErrorInfo } from "@tidings/core/dispatch";
 *
 * function report(error: unknown, info: WorkerErrorInfo) {
 *   console.error(`job ${info.jobId}, run ${info.attempt}: ${info.code}`, info.context?.deliveryKey, error);
 * }
 *
 * const worker = createWorker({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.onError(report);
 * ```
 */
export interface WorkerErrorInfo {
  code: "handler_failed" | "invalid_job" | "store_unavailable";
  jobId: string;
  attempt: number;
  event?: unknown;
  context?: WorkerContext;
}

/**
 * What became of one run of a job: for metrics and traces (`onOutcome`).
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import type { JobOutcome } from "@tidings/core/dispatch";
 *
 * const record = ({ queue, jobId, attempt, code, durationMs }: JobOutcome) =>
 *   console.log(`${queue} ${jobId} run ${attempt}: ${code} in ${durationMs} ms`);
 *
 * const worker = createWorker({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.onOutcome(record);
 * ```
 */
export interface JobOutcome {
  /**
   * What the run came to, and so what the engine does with the job: see `JOB_OUTCOMES`.
   */
  code: JobOutcomeCode;
  /** The engine, as `messaging.system` names it (`bullmq`, `pg-boss`), when the worker says. */
  system: string | undefined;
  /** The queue the job came from, when the worker says. */
  queue: string | undefined;
  jobId: string;
  attempt: number;
  /** The job's delivery: type, dedup key, endpoint, signed timestamp. Absent for an invalid job. */
  delivery: WorkerContext | undefined;
  /** Unix ms when the run started, with sub-millisecond precision. */
  startedAt: number;
  durationMs: number;
  handlers: readonly HandlerRun[];
  /** The trace context the job carries from its enqueue, when an instrumentation put one there. */
  trace: JobTraceContext | undefined;
}

/**
 * Which engine and queue a worker takes jobs from: what its outcomes (and so telemetry) name.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { type QueueIdentity, QueueWorker, type QueueWorkerOptions } from "@tidings/core/dispatch";
 *
 * // An engine's worker names its engine and queue, so its outcomes (and telemetry) do.
 * export class SqsWorker extends QueueWorker<MessageEvents> {
 *   constructor(queueUrl: string, options: QueueWorkerOptions = {}) {
 *     const identity: QueueIdentity = { system: "aws_sqs", queue: queueUrl.split("/").at(-1) ?? queueUrl };
 *     super(options, identity);
 *   }
 *   async close(): Promise<void> {}
 * }
 * ```
 */
export interface QueueIdentity {
  system: string;
  queue: string;
}

/**
 * What every engine's worker takes besides the engine's own options: a logger, and `order` with its `store`.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import { messageStatusOrder } from "@tidings/core";
 * import type { QueueWorkerOptions } from "@tidings/core/dispatch";
 * import { RedisStore } from "@tidings/redis";
 * import { Redis } from "ioredis";
 *
 * // Per message, one job at a time and in status order, across every worker sharing the store.
 * const ordered: QueueWorkerOptions = {
 *   order: messageStatusOrder,
 *   store: new RedisStore({ client: new Redis("redis://127.0.0.1:6379") }),
 *   orderWaitMs: 2000,
 * };
 *
 * const worker = createWorker({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 }, ...ordered });
 * worker.on("message.delivered", (event) => console.log(event.data.id));
 * ```
 */
export interface QueueWorkerOptions<Events extends EventMap = MessageEvents> {
  /** Where failures nobody listens to with `onError` are logged. Default `console`. */
  logger?: Logger | undefined;
  /**
   * As a Receiver's `order`: per object, one job in its handlers at a time, in strictly increasing position, across
   * every worker sharing `store`. A stale job completes without running its handlers; a job whose object is busy is
   * put back for later without using up an attempt. Needs `store`.
   */
  order?: EventOrder<Events> | undefined;
  /** Where positions and leases are kept, shared by every worker of the queue (RedisStore, PostgresStore). */
  store?: DeliveryStore | undefined;
  /** How long a job waits for its busy object before it is put back, in ms. Default 1 s. */
  orderWaitMs?: number | undefined;
  /** How long a job's hold on its object lasts; after it, another worker may take the object. Default 60 s. */
  leaseMs?: number | undefined;
  /** How long a handled job and a handled position are remembered, in ms. Default 24 h. */
  doneTtlMs?: number | undefined;
  /**
   * Runs each job's handlers in one database transaction (`pgTransactions(pool)`… from `@tidings/postgres`), handed
   * to them as `ctx.transaction`, with an inbox row keyed by the delivery key written in it (in `store`, a
   * `PostgresStore` on the same database): a job run again after its worker died finds its row committed and completes
   * without running the handlers; one run again before the commit finds nothing (its writes rolled back) and runs them.
   */
  transactions?: Transactions<unknown> | undefined;
}

interface SettleFacts {
  leaseMs: number;
  doneTtlMs: number;
  order: ObjectPosition;
  read: ReadJob;
  job: JobRun;
}

interface WorkerTransactions {
  run: Transactions<unknown>;
  store: TransactionalStore;
  doneTtlMs: number;
}

/** The ordered claim a transactional run marks done in its transaction. */
interface HeldClaim {
  token: string;
  order: ObjectPosition;
  facts: SettleFacts;
  store: OrderedDeliveryStore;
}

interface WorkerOrder {
  rule: EventOrder<EventMap>;
  store: OrderedDeliveryStore;
  waitMs: number;
  leaseMs: number;
  doneTtlMs: number;
  /** `job:<queue>:`, so a worker's keys and objects never meet a Receiver's, nor another queue's. */
  scope: string;
}

/**
 * The engine-independent half of a worker: the Receiver's handler API (`on`, `onAny`, `onError`) and what a job
 * run is: the job's delivery dispatched to every handler; if any failed, the job fails with that error, so the
 * engine retries it and, once its attempts are used up, keeps it in its failed set.
 *
 * @example
 * ```ts
 * import type { EventMap, MessageEvents } from "@tidings/core";
 * import { QueueWorker, type QueueWorkerOptions } from "@tidings/core/dispatch";
 *
 * type Job = { id: string; data: unknown; attempt: number };
 *
 * // A third engine's worker over an in-process list: `run` answers, the engine completes, retries or defers.
 * export class ListWorker<Events extends EventMap = MessageEvents> extends QueueWorker<Events> {
 *   #stopped = false;
 *
 *   constructor(readonly jobs: Job[], options: QueueWorkerOptions<Events> = {}) {
 *     super(options, { system: "list", queue: "deliveries" });
 *   }
 *
 *   async drain(): Promise<void> {
 *     for (let job = this.jobs.shift(); job && !this.#stopped; job = this.jobs.shift()) {
 *       try {
 *         if ((await this.run(job.data, job)) === "deferred") this.jobs.push(job); // its object is busy
 *       } catch {
 *         if (job.attempt < 5) this.jobs.push({ ...job, attempt: job.attempt + 1 }); // a handler failed
 *       }
 *     }
 *   }
 *
 *   async close(): Promise<void> {
 *     this.#stopped = true;
 *   }
 * }
 * ```
 */
export abstract class QueueWorker<
  Events extends EventMap = MessageEvents,
  Context extends WorkerContext = WorkerContext,
> {
  readonly #dispatcher = new Dispatcher<Events, WorkerContext>();
  readonly #errorListeners: ErrorListener<WorkerErrorInfo>[] = [];
  readonly #outcomeListeners: OutcomeListener<JobOutcome>[] = [];
  readonly #logger: SafeLogger;
  readonly #identity: QueueIdentity | undefined;
  readonly #order: WorkerOrder | undefined;
  readonly #transactions: WorkerTransactions | undefined;
  /** `job:<queue>:`, so a worker's keys and objects never meet a Receiver's, nor another queue's. */
  readonly #scope: string;
  /** How long a `deferred` job waits before it is tried again, in ms: engines put it back for this long. */
  protected readonly deferMs = 1000;

  constructor(options: QueueWorkerOptions<Events> = {}, identity?: QueueIdentity) {
    this.#logger = safeLogger(options.logger ?? console);
    this.#identity = identity;
    this.#scope = `job:${encodeLabel(identity?.queue ?? "")}:`;
    const doneTtlMs = positiveInteger(options.doneTtlMs ?? DEFAULT_DONE_TTL_MS, "doneTtlMs");
    if (options.transactions) {
      this.#transactions = {
        run: checkTransactions(options.transactions, "createWorker"),
        store: requireTransactionalStore(options.store, "createWorker"),
        doneTtlMs,
      };
    }
    if (options.order) {
      if (!options.store)
        throw new TypeError("createWorker: `order` needs `store`, shared by every worker of the queue");
      this.#order = {
        rule: options.order as unknown as EventOrder<EventMap>,
        store: requireOrderedStore(options.store, "createWorker"),
        waitMs: orderWaitMs(options.orderWaitMs),
        leaseMs: positiveInteger(options.leaseMs ?? DEFAULT_LEASE_MS, "leaseMs"),
        doneTtlMs,
        scope: this.#scope,
      };
    }
  }

  /** Runs `handler` for jobs of these event types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type], Context>): this {
    this.#dispatcher.on(types, handler as unknown as Handler<Events[Type], WorkerContext>);
    return this;
  }

  /** Runs `handler` for every job, including event types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, Context>): this {
    this.#dispatcher.onAny(handler as unknown as Handler<AnyEvent<Events> | DeliveryEvent, WorkerContext>);
    return this;
  }

  /** Hears every failed run of a job (the engine retries it unless its attempts are used up). */
  onError(listener: ErrorListener<WorkerErrorInfo>): this {
    this.#errorListeners.push(listener);
    return this;
  }

  /** Hears what became of every run of a job, with timings and each handler's run; costs nothing while nobody listens. */
  onOutcome(listener: OutcomeListener<JobOutcome>): this {
    this.#outcomeListeners.push(listener);
    return this;
  }

  /** Stops taking jobs and resolves once the running ones have finished. */
  abstract close(): Promise<void>;

  /**
   * One run of a job: resolves when every handler succeeded (or, with `order`, the job is stale, a duplicate, or to be
   * deferred: see {@link JobRunResult}), rejects (the engine's failure) otherwise.
   */
  protected run(data: unknown, job: JobRun): Promise<JobRunResult> {
    if (this.#outcomeListeners.length === 0) return this.#run(data, job, undefined);
    const startedAt = preciseNow();
    const handlers: HandlerRun[] = [];
    const delivery: { read?: ReadJob } = {};
    const finish = (code: JobOutcome["code"]) => {
      const outcome: JobOutcome = {
        code,
        system: this.#identity?.system,
        queue: this.#identity?.queue,
        jobId: job.id,
        attempt: job.attempt,
        delivery: delivery.read?.context,
        startedAt,
        durationMs: preciseNow() - startedAt,
        handlers,
        trace: delivery.read?.trace,
      };
      notifyListeners(this.#outcomeListeners, [outcome], this.#logger);
    };
    return this.#run(data, job, { handlers, delivery }).then(
      (result) => {
        finish(result);
        return result;
      },
      (error: unknown) => {
        finish(delivery.read ? "failed" : "invalid_job");
        throw error;
      },
    );
  }

  async #run(
    data: unknown,
    job: JobRun,
    trace: { handlers: HandlerRun[]; delivery: { read?: ReadJob } } | undefined,
  ): Promise<JobRunResult> {
    let read: ReadJob;
    try {
      read = readQueuedDelivery(data, job);
    } catch (error) {
      this.#report(error, { code: "invalid_job", jobId: job.id, attempt: job.attempt });
      throw error;
    }
    if (trace) trace.delivery.read = read;
    const { event, context } = read;
    const ordering = this.#order;
    const order =
      ordering &&
      positionOf(ordering.rule, event, (object) =>
        ordering.scope.concat(context.endpoint === undefined ? object : endpointKey(context.endpoint, object)),
      );
    const joined = this.#transactions;
    if (!ordering || !order) {
      if (joined) return this.#inTransaction(joined, read, job, trace?.handlers, undefined);
      const failures = await this.#dispatcher.dispatch(event, context, trace?.handlers);
      if (failures.length === 0) return "completed";
      this.#fail(failures, read, job);
    }
    const key = ordering.scope + context.deliveryKey;
    const { store, leaseMs, doneTtlMs, waitMs } = ordering;
    const claim = await claimInOrder(store, key, leaseMs, order, doneTtlMs, waitMs);
    if (claim.state === "done") return "duplicate";
    if (claim.state === "stale") return "stale";
    if (claim.state !== "claimed") return "deferred"; // busy, or a rerun of this job still held by another worker
    // Handlers may outlast the lease (an engine lets a job run far longer): the object stays theirs while they run.
    const renewal = renewWhileRunning(store, key, claim.token, leaseMs, order);
    if (joined) {
      const facts = { leaseMs, doneTtlMs, order, read, job };
      const held = { token: claim.token, order, facts, store };
      return this.#inTransaction(joined, read, job, trace?.handlers, held).finally(() => renewal.stop());
    }
    const failures = await this.#dispatcher.dispatch(event, context, trace?.handlers);
    renewal.stop();
    await this.#settle(store, key, claim.token, failures.length === 0, { leaseMs, doneTtlMs, order, read, job });
    if (failures.length === 0) return "completed";
    this.#fail(failures, read, job);
  }

  /**
   * One run in a transaction: the inbox row (or, with `order`, the claim's done mark) and the handlers' writes commit
   * together. Without `order` the inbox row goes first, so a rerun of a job whose run committed finds it and completes
   * without running the handlers, and a rerun racing a live run waits for it. After the handlers failed, or the
   * transaction did, nothing is committed and the job fails: the engine retries it.
   */
  async #inTransaction(
    joined: WorkerTransactions,
    read: ReadJob,
    job: JobRun,
    runs: HandlerRun[] | undefined,
    held: HeldClaim | undefined,
  ): Promise<JobRunResult> {
    const { event, context } = read;
    const key = this.#scope + context.deliveryKey;
    const { store, doneTtlMs } = joined;
    try {
      // Outside the transaction: a database that runs one at a time (PGlite) would wait on it for ever.
      await store.setup();
      return await joined.run.run(async (transaction, statements) => {
        if (!held && !(await store.enterWithin(statements, key, doneTtlMs))) return "duplicate";
        const failures = await this.#dispatcher.dispatch(event, { ...context, transaction } as WorkerContext, runs);
        if (failures.length > 0) throw new HandlersFailed(failures);
        if (held && !(await store.completeWithin(statements, key, held.token, doneTtlMs, held.order))) {
          throw LEASE_LAPSED;
        }
        return "completed";
      });
    } catch (error) {
      if (held && error !== LEASE_LAPSED) await this.#settle(held.store, key, held.token, false, held.facts);
      if (error instanceof HandlersFailed) this.#fail(error.failures, read, job);
      if (error === LEASE_LAPSED) {
        this.#logger.warn({
          message: `[tidings] job ${job.id}: its hold on the object ran out while its handlers ran; rolled back.`,
          code: "lease_lost",
          jobId: job.id,
          attempt: job.attempt,
        });
        throw new Error(`Job ${job.id}: the hold on its object ran out while its handlers ran; nothing was committed`);
      }
      this.#report(error, { code: "store_unavailable", jobId: job.id, attempt: job.attempt, event, context });
      throw error;
    }
  }

  /**
   * Completes (moving the position) or releases the job's claim, tried again for up to half the lease. A store failure
   * here is reported, not thrown: after the handlers succeeded, failing the job would run them again.
   */
  async #settle(
    store: OrderedDeliveryStore,
    key: string,
    token: string,
    succeeded: boolean,
    { leaseMs, doneTtlMs, order, read, job }: SettleFacts,
  ): Promise<void> {
    const settle = () =>
      succeeded ? store.completeInOrder(key, token, doneTtlMs, order) : store.releaseInOrder(key, token, order);
    try {
      const held = await settleWithin(Promise.resolve().then(settle), settle, leaseMs / 2);
      if (!held) {
        this.#logger.warn({
          message: `[tidings] job ${job.id}: its hold on the object ran out while its handlers ran; not settled.`,
          code: "lease_lost",
          jobId: job.id,
          attempt: job.attempt,
        });
      }
    } catch (error) {
      const { event, context } = read;
      this.#report(error, { code: "store_unavailable", jobId: job.id, attempt: job.attempt, event, context });
    }
  }

  #fail(failures: unknown[], { event, context }: ReadJob, job: JobRun): never {
    for (const failure of failures) {
      this.#report(failure, { code: "handler_failed", jobId: job.id, attempt: job.attempt, event, context });
    }
    throw jobFailure(failures);
  }

  /** Tells `onError` listeners, as a Receiver does; a failure nobody listens to goes to the logger. */
  #report(error: unknown, info: WorkerErrorInfo): void {
    if (this.#errorListeners.length === 0) {
      const { code, jobId, attempt } = info;
      this.#logger.error({
        message: `[tidings] job ${jobId} ${code} (attempt ${attempt})`,
        code,
        jobId,
        attempt,
        err: errorFacts(error),
      });
    }
    notifyListeners(this.#errorListeners, [error, info], this.#logger);
  }
}

/** The error the engine keeps as the job's last error: the handler's own when one failed. */
function jobFailure(failures: readonly unknown[]): Error {
  if (failures.length === 1) {
    const [failure] = failures;
    return failure instanceof Error ? failure : new Error(`A handler threw ${String(failure)}`);
  }
  const messages = failures.map((failure) => (failure instanceof Error ? failure.message : String(failure)));
  return new AggregateError(failures, `${failures.length} handlers failed: ${messages.join("; ")}`);
}
