import type { EventMap, MessageEvents } from "@tidings/core";
import { QueueWorker, type QueueWorkerOptions } from "@tidings/core/dispatch";
import { DelayedError, type Job, Worker, type WorkerOptions } from "bullmq";
import { QUEUE_DEFAULTS } from "./defaults";

/**
 * What `createWorker` takes: BullMQ's `WorkerOptions`, the queue's name, and the Receiver's ordering options.
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
 *   lockDuration: 60_000, // handlers that call slow APIs: each job's lock lasts a minute between renewals
 * };
 *
 * const worker = createWorker(workerOptions);
 * worker.on("message.failed", (event, context) => console.warn(event.data.id, "failed", context.deliveryKey));
 * await worker.ready;
 * ```
 */
export interface CreateWorkerOptions<Events extends EventMap = MessageEvents>
  extends WorkerOptions,
    QueueWorkerOptions<Events> {
  /** The name of the queue `enqueueTo` adds to. */
  queue: string;
  /** Jobs run at once. Default 1. */
  concurrency?: number;
}

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
export class DeliveryWorker<Events extends EventMap = MessageEvents> extends QueueWorker<Events> {
  /** BullMQ's side of this worker: its `Worker`, for its events (`completed`, `failed`, `error`…). */
  readonly engineWorker: Worker;
  /** Resolves once the worker is connected to Redis and takes jobs. */
  readonly ready: Promise<void>;

  constructor({
    queue,
    concurrency = QUEUE_DEFAULTS.concurrency,
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
    this.engineWorker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const attempt = Math.max(job.attemptsStarted, job.attemptsMade + 1);
        if ((await this.run(job.data, { id: job.id ?? "", attempt })) !== "deferred") return;
        // Its object is busy: back to the delayed set, which BullMQ does not count as a failed attempt.
        await job.moveToDelayed(Date.now() + this.deferMs, token);
        throw new DelayedError();
      },
      { ...workerOptions, concurrency },
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
): DeliveryWorker<Events> {
  return new DeliveryWorker<Events>(options);
}
