import {
  type BatchOptions,
  createEnqueuer,
  type EngineOptionNames,
  type Enqueuer,
  type QueuedDelivery,
  resolveEnqueueOptions,
  type SharedEnqueueOptions,
} from "@tidings/core/dispatch";
import type { JobInsert, PgBoss, SendOptions } from "pg-boss";
import { QUEUE_DEFAULTS } from "./defaults";
import { jobIdFor } from "./job-id";

/**
 * How `enqueueTo` writes jobs: the options every engine takes, under the same names and units as on
 * `@tidings/bullmq`, and pg-boss's own in `pgBoss`; each default is in {@link QUEUE_DEFAULTS}.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type EnqueueOptions, enqueueTo } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // Handlers that call a slow partner API: more runs, further apart, and up to half an hour for each.
 * const options: EnqueueOptions = {
 *   attempts: 8,
 *   retryDelaySeconds: 10,
 *   batch: { maxJobs: 200, maxWaitMs: 2 },
 *   pgBoss: { expireInSeconds: 30 * 60 },
 * };
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.onAny(enqueueTo({ boss, queue: "deliveries" }, options));
 * ```
 */
export interface EnqueueOptions extends SharedEnqueueOptions {
  /**
   * How long completed and failed jobs are kept, in seconds (`deleteAfterSeconds`). A job id refuses a duplicate only
   * while its row exists, so keep it at least as long as the Receiver remembers deliveries (`doneTtlMs`, 24 h by
   * default). Default 604 800, a week.
   */
  keepCompletedSeconds?: number;
  /**
   * Group commit: deliveries that arrive together are written by one `insert` (one statement), and each is answered
   * once the batch holding its job is committed. `false`: one `send` per delivery. Default
   * `{ maxJobs: 100, maxWaitMs: 1 }`.
   */
  batch?: BatchOptions | false;
  /** pg-boss's own job options, which `@tidings/bullmq` has no counterpart for. */
  pgBoss?: PgBossJobOptions;
}

/**
 * pg-boss's own job options, in `enqueueTo`'s `pgBoss`; each default is in `QUEUE_DEFAULTS.pgBoss`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { enqueueTo, type PgBossJobOptions } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // Handlers that may run for an hour: a job is taken for dead only after that.
 * const pgBoss: PgBossJobOptions = { expireInSeconds: 60 * 60 };
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.onAny(enqueueTo({ boss, queue: "deliveries" }, { pgBoss }));
 * ```
 */
export interface PgBossJobOptions {
  /**
   * A run still active after this long, in seconds, is failed and retried: how a dead worker's job runs again
   * (BullMQ finds a dead worker's job by its lock instead: `createWorker`'s `bullmq.lockDuration`). Default 900.
   */
  expireInSeconds?: number;
}

/** What `enqueueTo` refuses with a TypeError that names what replaces it. */
const ENQUEUE_NAMES: EngineOptionNames = {
  engine: "pg-boss",
  group: "pgBoss",
  formerly: { expireInSeconds: "`pgBoss: { expireInSeconds }`" },
};

/**
 * Where `enqueueTo` sends jobs: your started PgBoss (the part of it enqueueing uses) and the queue's name.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type EnqueueTarget, enqueueTo } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 *
 * // Each sending account's deliveries in a queue of their own, on the one PgBoss.
 * const queueOf = (account: string): EnqueueTarget => ({ boss, queue: `deliveries-${account}` });
 * export const acme = createReceiver({ secret: process.env.ACME_WEBHOOK_SECRET! });
 * acme.onAny(enqueueTo(queueOf("acme")));
 * export const globex = createReceiver({ secret: process.env.GLOBEX_WEBHOOK_SECRET! });
 * globex.onAny(enqueueTo(queueOf("globex")));
 * ```
 */
export interface EnqueueTarget {
  boss: Pick<PgBoss, "send" | "insert" | "createQueue">;
  queue: string;
}

/**
 * A Receiver handler that sends one pg-boss job per event, its id derived from the delivery key, and resolves once
 * PostgreSQL has stored it. Creates the queue if it does not exist. Deliveries that arrive together share one
 * `insert`. A failed or slow enqueue throws, so the Receiver answers 5xx, releases its claim and the sender retries.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { enqueueTo } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.onAny(enqueueTo({ boss, queue: "deliveries" }, { attempts: 10 }));
 * ```
 */
export function enqueueTo(target: EnqueueTarget, options: EnqueueOptions = {}): Enqueuer {
  const { boss, queue } = requireTarget(target, options);
  const resolved = resolveEnqueueOptions(options, QUEUE_DEFAULTS, ENQUEUE_NAMES);
  const expireInSeconds = options.pgBoss?.expireInSeconds ?? QUEUE_DEFAULTS.pgBoss.expireInSeconds;
  if (!Number.isSafeInteger(expireInSeconds) || expireInSeconds <= 0) {
    throw new TypeError("enqueueTo: pgBoss.expireInSeconds must be a positive whole number");
  }
  // The same fields for send and insert, every one of them set, so no queue policy stands in for a default.
  const jobOptions = {
    retryLimit: resolved.attempts - 1,
    retryDelay: resolved.retryDelaySeconds,
    retryBackoff: resolved.retryBackoff === "exponential",
    expireInSeconds,
    deleteAfterSeconds: resolved.keepCompletedSeconds,
  } satisfies SendOptions;
  let created: Promise<void> | undefined;
  const queueCreated = () =>
    (created ??= boss.createQueue(queue).catch((error: unknown) => {
      created = undefined;
      throw error;
    }));
  const send = async (data: QueuedDelivery, id: string) => {
    await queueCreated();
    await boss.send(queue, data, { ...jobOptions, id });
  };
  // insert skips a row whose id exists, as send does, and resolves to null rather than the ids.
  const insert = async (jobs: readonly { data: QueuedDelivery; jobId: string }[]) => {
    await queueCreated();
    await boss.insert(
      queue,
      jobs.map(({ data, jobId }): JobInsert => ({ ...jobOptions, id: jobId, data })),
    );
  };
  return createEnqueuer({
    system: "pg-boss",
    queue,
    jobIdFor,
    write: send,
    writeBatch: insert,
    batch: resolved.batch,
    timeoutMs: resolved.timeoutMs,
    keepVerifiedBody: resolved.keepVerifiedBody,
    describe: (deliveryKey) => `Sending the job for ${deliveryKey} to pg-boss queue ${queue}`,
  });
}

/**
 * The target, checked when the handler is made: `enqueueTo(boss, "deliveries")`, pg-boss's own `send(name, …)` order
 * that older examples show, would otherwise start and then fail every delivery.
 */
function requireTarget(target: EnqueueTarget, options: unknown): EnqueueTarget {
  const { boss, queue } = (target ?? {}) as Partial<EnqueueTarget>;
  if (typeof boss?.send !== "function" || typeof queue !== "string" || queue === "" || typeof options !== "object") {
    throw new TypeError(
      'enqueueTo takes one object holding the started PgBoss and the queue name: enqueueTo({ boss, queue: "deliveries" }, options?)',
    );
  }
  return { boss, queue };
}
