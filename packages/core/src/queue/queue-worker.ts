import type { DeliveryEvent } from "../event";
import { Dispatcher, type ErrorListener, notifyListeners } from "../receiver/dispatch";
import type { EventMap, MessageEvents } from "../receiver/events";
import type { AnyEvent, Handler } from "../receiver/handlers";
import { errorFacts, type Logger, type SafeLogger, safeLogger } from "../receiver/logger";
import { type HandlerRun, type OutcomeListener, preciseNow } from "../receiver/outcome";
import type { JobTraceContext } from "./job-trace";
import { type JobRun, type ReadJob, readQueuedDelivery, type WorkerContext } from "./queued-delivery";

/** Passed to a worker's `onError` listeners: which job failed, and how. */
export interface WorkerErrorInfo {
  code: "handler_failed" | "invalid_job";
  jobId: string;
  attempt: number;
  event?: unknown;
  context?: WorkerContext;
}

/** What became of one run of a job: for metrics and traces (`onOutcome`). */
export interface JobOutcome {
  /** `completed`, `failed` (a handler failed; the engine retries it unless its attempts are used up), or `invalid_job`. */
  code: "completed" | "failed" | "invalid_job";
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

/** Which engine and queue a worker takes jobs from: what its outcomes (and so telemetry) name. */
export interface QueueIdentity {
  system: string;
  queue: string;
}

export interface QueueWorkerOptions {
  /** Where failures nobody listens to with `onError` are logged. Default `console`. */
  logger?: Logger;
}

/**
 * The engine-independent half of a worker: the Receiver's handler API (`on`, `onAny`, `onError`) and what a job
 * run is: the job's delivery dispatched to every handler; if any failed, the job fails with that error, so the
 * engine retries it and, once its attempts are used up, keeps it in its failed set.
 */
export abstract class QueueWorker<Events extends EventMap = MessageEvents> {
  readonly #dispatcher = new Dispatcher<Events, WorkerContext>();
  readonly #errorListeners: ErrorListener<WorkerErrorInfo>[] = [];
  readonly #outcomeListeners: OutcomeListener<JobOutcome>[] = [];
  readonly #logger: SafeLogger;
  readonly #identity: QueueIdentity | undefined;

  constructor(options: QueueWorkerOptions = {}, identity?: QueueIdentity) {
    this.#logger = safeLogger(options.logger ?? console);
    this.#identity = identity;
  }

  /** Runs `handler` for jobs of these event types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(
    types: Type | readonly Type[],
    handler: Handler<Events[Type], WorkerContext>,
  ): this {
    this.#dispatcher.on(types, handler);
    return this;
  }

  /** Runs `handler` for every job, including event types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, WorkerContext>): this {
    this.#dispatcher.onAny(handler);
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

  /** One run of a job: resolves when every handler succeeded, rejects (the engine's failure) otherwise. */
  protected run(data: unknown, job: JobRun): Promise<void> {
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
      () => finish("completed"),
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
  ): Promise<void> {
    let read: ReadJob;
    try {
      read = readQueuedDelivery(data, job);
    } catch (error) {
      this.#report(error, { code: "invalid_job", jobId: job.id, attempt: job.attempt });
      throw error;
    }
    if (trace) trace.delivery.read = read;
    const { event, context } = read;
    const failures = await this.#dispatcher.dispatch(event, context, trace?.handlers);
    if (failures.length === 0) return;
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
