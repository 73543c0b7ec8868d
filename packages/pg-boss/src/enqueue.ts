import { createEnqueuer, type Enqueuer, type QueuedDelivery } from "@tidings/core/dispatch";
import type { PgBoss, SendOptions } from "pg-boss";
import { jobIdFor } from "./job-id";

export interface EnqueueOptions {
  /**
   * An enqueue slower than this (checked to within an eighth of it) fails, so the Receiver answers 5xx and the sender
   * retries. Default 5000 ms.
   */
  timeoutMs?: number;
  /** Runs of a job before it stays failed. Default 5. */
  attempts?: number;
  /** Seconds before the first retry. Default 1. */
  retryDelaySeconds?: number;
  /** Double the delay on each retry (pg-boss adds jitter). Default true: about 1 s, 2 s, 4 s, 8 s. */
  retryBackoff?: boolean;
  /** A run still active after this long is failed and retried: how a dead worker's job runs again. Default 900. */
  expireInSeconds?: number;
  /**
   * How long completed and failed jobs are kept, in seconds. A job id refuses a duplicate only while its row exists,
   * so keep it at least as long as the Receiver remembers deliveries (`doneTtlMs`, 24 h by default). Default
   * pg-boss's, 7 days.
   */
  keepCompletedSeconds?: number;
  /** Also put the verified body bytes in the job (base64). Off by default: the body may hold personal data. */
  keepVerifiedBody?: boolean;
}

export const ENQUEUE_DEFAULTS = {
  timeoutMs: 5000,
  attempts: 5,
  retryDelaySeconds: 1,
  retryBackoff: true,
} as const satisfies EnqueueOptions;

/** The part of a `PgBoss` instance that enqueueing uses. */
export type EnqueueTarget = Pick<PgBoss, "send" | "createQueue">;

/**
 * A Receiver handler that sends one pg-boss job per event, its id derived from the delivery key, and resolves once
 * PostgreSQL has stored it: `receiver.onAny(enqueueTo(boss, "deliveries"))`. Creates the queue if it does not exist.
 * A failed or slow enqueue throws, so the Receiver answers 5xx, releases its claim and the sender retries.
 */
export function enqueueTo(boss: EnqueueTarget, queue: string, options: EnqueueOptions = {}): Enqueuer {
  const sendOptions: SendOptions = {
    retryLimit: (options.attempts ?? ENQUEUE_DEFAULTS.attempts) - 1,
    retryDelay: options.retryDelaySeconds ?? ENQUEUE_DEFAULTS.retryDelaySeconds,
    retryBackoff: options.retryBackoff ?? ENQUEUE_DEFAULTS.retryBackoff,
    ...(options.expireInSeconds === undefined ? {} : { expireInSeconds: options.expireInSeconds }),
    ...(options.keepCompletedSeconds === undefined ? {} : { deleteAfterSeconds: options.keepCompletedSeconds }),
  };
  let created: Promise<void> | undefined;
  const send = async (data: QueuedDelivery, id: string) => {
    created ??= boss.createQueue(queue).catch((error: unknown) => {
      created = undefined;
      throw error;
    });
    await created;
    await boss.send(queue, data, { ...sendOptions, id });
  };
  return createEnqueuer({
    system: "pg-boss",
    queue,
    jobIdFor,
    write: send,
    timeoutMs: options.timeoutMs ?? ENQUEUE_DEFAULTS.timeoutMs,
    keepVerifiedBody: options.keepVerifiedBody ?? false,
    describe: (deliveryKey) => `Sending the job for ${deliveryKey} to pg-boss queue ${queue}`,
  });
}
