import type { DeliveryEvent } from "../event";
import { Dispatcher, type ErrorListener, notifyListeners } from "../receiver/dispatch";
import type { EventMap, MessageEvents } from "../receiver/events";
import type { AnyEvent, Handler } from "../receiver/handlers";
import { type Logger, safeLogger } from "../receiver/options";
import { type JobRun, toWorkerContext, type WorkerContext } from "./queued-delivery";

/** Passed to a worker's `onError` listeners: which job failed, and how. */
export interface WorkerErrorInfo {
  code: "handler_failed" | "invalid_job";
  jobId: string;
  attempt: number;
  event?: unknown;
  context?: WorkerContext;
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
  readonly #logger: Required<Logger>;

  constructor(options: QueueWorkerOptions = {}) {
    this.#logger = safeLogger(options.logger ?? console);
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

  /** Stops taking jobs and resolves once the running ones have finished. */
  abstract close(): Promise<void>;

  /** One run of a job: resolves when every handler succeeded, rejects (the engine's failure) otherwise. */
  protected async run(data: unknown, job: JobRun): Promise<void> {
    let context: WorkerContext;
    try {
      context = toWorkerContext(data, job);
    } catch (error) {
      this.#report(error, { code: "invalid_job", jobId: job.id, attempt: job.attempt });
      throw error;
    }
    const event = (data as { event: unknown }).event;
    const failures = await this.#dispatcher.dispatch(event, context);
    if (failures.length === 0) return;
    for (const failure of failures) {
      this.#report(failure, { code: "handler_failed", jobId: job.id, attempt: job.attempt, event, context });
    }
    throw jobFailure(failures);
  }

  /** Tells `onError` listeners, as a Receiver does; a failure nobody listens to goes to the logger. */
  #report(error: unknown, info: WorkerErrorInfo): void {
    if (this.#errorListeners.length === 0) this.#logger.error("[tidings]", info.code, info.jobId, error);
    notifyListeners(this.#errorListeners, error, info, this.#logger);
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
