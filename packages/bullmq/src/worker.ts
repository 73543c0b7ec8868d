import type { EventMap, MessageEvents } from "@tidings/core";
import { QueueWorker, type QueueWorkerOptions } from "@tidings/core/dispatch";
import { DelayedError, type Job, Worker, type WorkerOptions } from "bullmq";

export interface CreateWorkerOptions<Events extends EventMap = MessageEvents>
  extends WorkerOptions,
    QueueWorkerOptions<Events> {
  /** The queue `enqueueTo` adds to. */
  queue: string;
}

/** A BullMQ worker that runs each job's delivery through the same typed handlers as a Receiver. */
export class DeliveryWorker<Events extends EventMap = MessageEvents> extends QueueWorker<Events> {
  /** The underlying BullMQ Worker, for its events (`completed`, `failed`, `error`…). */
  readonly worker: Worker;

  constructor({
    queue,
    logger,
    order,
    store,
    orderWaitMs,
    leaseMs,
    doneTtlMs,
    ...workerOptions
  }: CreateWorkerOptions<Events>) {
    super({ logger, order, store, orderWaitMs, leaseMs, doneTtlMs }, { system: "bullmq", queue });
    // attemptsStarted counts every run, a rerun after the worker died included; attemptsMade only failed ones.
    this.worker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const attempt = Math.max(job.attemptsStarted, job.attemptsMade + 1);
        if ((await this.run(job.data, { id: job.id ?? "", attempt })) !== "deferred") return;
        // Its object is busy: back to the delayed set, which BullMQ does not count as a failed attempt.
        await job.moveToDelayed(Date.now() + this.deferMs, token);
        throw new DelayedError();
      },
      workerOptions,
    );
  }

  /** Stops taking jobs and resolves once the running ones have finished. */
  close(): Promise<void> {
    return this.worker.close();
  }
}

/** Starts a worker on the queue; register handlers right away (`worker.on(type, handler)`), before any await. */
export function createWorker<Events extends EventMap = MessageEvents>(
  options: CreateWorkerOptions<Events>,
): DeliveryWorker<Events> {
  return new DeliveryWorker<Events>(options);
}
