import type { EventMap, MessageEvents } from "../event-map";
import { positiveInteger, wholeNumber } from "../ground/whole-numbers";
import type { BatchOptions } from "./group-commit";
import type { QueueWorkerOptions } from "./queue-worker";

/**
 * How the delay between runs of a failed job grows: `"exponential"` doubles it on each retry, `"fixed"` keeps it.
 *
 * @example
 * ```ts
 * import type { RetryBackoff } from "@tidings/core/dispatch";
 * import { enqueueTo } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // A partner API with a rate limit per minute: retry once a minute, not sooner and sooner.
 * const retryBackoff: RetryBackoff = "fixed";
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * export const enqueue = enqueueTo({ boss, queue: "deliveries" }, { retryDelaySeconds: 60, retryBackoff });
 * ```
 */
export type RetryBackoff = "exponential" | "fixed";

/**
 * The options every engine's `enqueueTo` takes, under these names and in these units; an engine package extends it
 * with a group of its own options (`pgBoss: { … }`), named after the engine.
 *
 * @example
 * ```ts
 * import type { SharedEnqueueOptions } from "@tidings/core/dispatch";
 * import { enqueueTo as bullmqEnqueue } from "@tidings/bullmq";
 * import { enqueueTo as pgBossEnqueue } from "@tidings/pg-boss";
 * import { Queue } from "bullmq";
 * import { PgBoss } from "pg-boss";
 *
 * // One policy for both engines: the same names, the same units.
 * const policy: SharedEnqueueOptions = { attempts: 8, retryDelaySeconds: 5, keepCompletedSeconds: 7 * 86_400 };
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * export const toPostgres = pgBossEnqueue({ boss, queue: "deliveries" }, policy);
 * export const toRedis = bullmqEnqueue(new Queue("deliveries", { connection: { host: "127.0.0.1" } }), policy);
 * ```
 */
export interface SharedEnqueueOptions {
  /** An enqueue slower than this fails, so the Receiver answers 5xx and the sender retries, in ms. */
  timeoutMs?: number;
  /** Runs of a job before it stays failed. */
  attempts?: number;
  /** The delay before the first retry, in whole seconds; `0` retries at once (with `"fixed"`). */
  retryDelaySeconds?: number;
  /** `"exponential"`: the delay doubles on each retry; `"fixed"`: every retry waits `retryDelaySeconds`. */
  retryBackoff?: RetryBackoff;
  /**
   * How long a completed job is kept, in seconds. A job id refuses a duplicate only while its job exists, so keep it
   * at least as long as the Receiver remembers deliveries (`doneTtlMs`, 24 h by default).
   */
  keepCompletedSeconds?: number;
  /** Also put the verified body bytes in the job (base64). Off by default: the body may hold personal data. */
  keepVerifiedBody?: boolean;
  /** Group commit: deliveries that arrive together share one engine write; `false`, one write per delivery. */
  batch?: BatchOptions | false;
}

/**
 * The options every engine's `createWorker` takes: the queue, how many jobs run at once, and core's worker options
 * (`logger`, `order`, `store`, `orderWaitMs`, `leaseMs`, `doneTtlMs`). An engine package adds its engine handle
 * (`connection`, `boss`) and a group of its own options named after the engine (`bullmq: { … }`, `pgBoss: { … }`).
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import type { SharedWorkerOptions } from "@tidings/core/dispatch";
 * import { createWorker } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // What every worker process of the app starts with, whichever engine runs it.
 * export const common: SharedWorkerOptions<MessageEvents> = { queue: "deliveries", concurrency: 8 };
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * await boss.start();
 * const worker = createWorker({ ...common, boss, pgBoss: { pollingIntervalSeconds: 1 } });
 * worker.on("message.delivered", (event) => console.log(event.data.id));
 * ```
 */
export interface SharedWorkerOptions<Events extends EventMap = MessageEvents> extends QueueWorkerOptions<Events> {
  /** The name of the queue `enqueueTo` writes to. */
  queue: string;
  /** Jobs a worker runs at once. */
  concurrency?: number;
}

/**
 * The shape of every engine package's `QUEUE_DEFAULTS`: a value for each shared option. An engine's own defaults sit
 * in its group (`pgBoss: { expireInSeconds }`).
 *
 * @example
 * ```ts
 * import { BATCH_DEFAULTS, type SharedQueueDefaults } from "@tidings/core/dispatch";
 *
 * // A third engine's defaults, in the shape both engine packages use.
 * export const QUEUE_DEFAULTS = {
 *   timeoutMs: 5000,
 *   attempts: 5,
 *   retryDelaySeconds: 1,
 *   retryBackoff: "exponential",
 *   keepCompletedSeconds: 86_400,
 *   keepVerifiedBody: false,
 *   batch: BATCH_DEFAULTS,
 *   concurrency: 1,
 * } as const satisfies SharedQueueDefaults;
 * ```
 */
export type SharedQueueDefaults = { readonly [Key in keyof SharedEnqueueOptions]-?: SharedEnqueueOptions[Key] } & {
  readonly concurrency: number;
};

/**
 * What an engine package tells the option helpers about itself, for their checks and messages.
 *
 * @example
 * ```ts
 * import type { EngineOptionNames } from "@tidings/core/dispatch";
 *
 * // An SQS package: its client is the handle, its own options go in `sqs: { … }`.
 * export const SQS_OPTIONS: EngineOptionNames = {
 *   engine: "SQS",
 *   group: "sqs",
 *   handles: ["client"],
 *   formerly: { visibilityTimeout: "`sqs: { visibilityTimeout }`" },
 * };
 * ```
 */
export interface EngineOptionNames {
  /** The engine as its package names it: `"BullMQ"`, `"pg-boss"`. */
  engine: string;
  /** The key holding the engine's own options for this call (`"bullmq"`, `"pgBoss"`); none if it has none. */
  group?: string;
  /** Top-level keys of the engine besides its group, such as the handle it runs on (`"connection"`, `"boss"`). */
  handles?: readonly string[];
  /** Option names the package took before, each with what replaces it: refused at setup, the message naming it. */
  formerly?: Readonly<Record<string, string>>;
}

/**
 * Each shared enqueue option, given or defaulted, checked: what {@link resolveEnqueueOptions} gives an engine to map
 * to its own job options.
 *
 * @example
 * ```ts
 * import type { ResolvedEnqueueOptions } from "@tidings/core/dispatch";
 *
 * // How a third engine states the shared retry policy in its own terms.
 * export function retryPolicy({ attempts, retryDelaySeconds, retryBackoff }: ResolvedEnqueueOptions) {
 *   return { maxReceives: attempts, delayMs: retryDelaySeconds * 1000, doubling: retryBackoff === "exponential" };
 * }
 * ```
 */
export type ResolvedEnqueueOptions = {
  [Key in keyof SharedEnqueueOptions]-?: Exclude<SharedEnqueueOptions[Key], undefined>;
};

/** Every shared enqueue option, as a record so that one added to {@link SharedEnqueueOptions} must be added here. */
const ENQUEUE_KEYS: Record<keyof SharedEnqueueOptions, true> = {
  timeoutMs: true,
  attempts: true,
  retryDelaySeconds: true,
  retryBackoff: true,
  keepCompletedSeconds: true,
  keepVerifiedBody: true,
  batch: true,
};

/** Core's worker options, as a record so that one added to {@link QueueWorkerOptions} must be added here. */
const CORE_WORKER_KEYS: Record<keyof QueueWorkerOptions, true> = {
  logger: true,
  order: true,
  store: true,
  orderWaitMs: true,
  leaseMs: true,
  doneTtlMs: true,
  transactions: true,
};

const WORKER_KEYS: Record<keyof SharedWorkerOptions, true> = { ...CORE_WORKER_KEYS, queue: true, concurrency: true };

const BACKOFFS: readonly RetryBackoff[] = ["exponential", "fixed"];

/**
 * `enqueueTo`'s shared options with the package's defaults filled in, each checked: a TypeError at setup names an
 * option of a former name and what replaces it, an unknown option and where the engine's own options go, and a value
 * out of range. The engine maps the result to its own job options.
 *
 * @example
 * ```ts
 * import { createEnqueuer, type Enqueuer, resolveEnqueueOptions, type SharedEnqueueOptions } from "@tidings/core/dispatch";
 * import type { Pool } from "pg";
 *
 * const DEFAULTS = {
 *   timeoutMs: 5000,
 *   attempts: 5,
 *   retryDelaySeconds: 1,
 *   retryBackoff: "exponential",
 *   keepCompletedSeconds: 86_400,
 *   keepVerifiedBody: false,
 *   batch: false,
 *   concurrency: 1,
 * } as const;
 *
 * // A third engine's enqueueTo: the shared options, under the shared names, checked as every engine checks them.
 * export function enqueueTo(pool: Pool, options: SharedEnqueueOptions = {}): Enqueuer {
 *   const { attempts, batch, timeoutMs, keepVerifiedBody } = resolveEnqueueOptions(options, DEFAULTS, {
 *     engine: "my-engine",
 *     group: "myEngine",
 *   });
 *   return createEnqueuer({
 *     system: "my-engine",
 *     queue: "deliveries",
 *     jobIdFor: (deliveryKey) => deliveryKey,
 *     write: (data, jobId) =>
 *       pool.query("INSERT INTO jobs (id, data, attempts) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
 *         jobId,
 *         JSON.stringify(data),
 *         attempts,
 *       ]),
 *     batch,
 *     timeoutMs,
 *     keepVerifiedBody,
 *     describe: (deliveryKey) => `Adding the job for ${deliveryKey}`,
 *   });
 * }
 * ```
 */
export function resolveEnqueueOptions(
  options: SharedEnqueueOptions,
  defaults: SharedQueueDefaults,
  names: EngineOptionNames,
): ResolvedEnqueueOptions {
  refuseUnknownOptions("enqueueTo", options, ENQUEUE_KEYS, names);
  const value = <Key extends keyof SharedEnqueueOptions>(key: Key) =>
    (options[key] ?? defaults[key]) as ResolvedEnqueueOptions[Key];
  const retryBackoff = value("retryBackoff");
  if (!BACKOFFS.includes(retryBackoff)) {
    const was =
      typeof retryBackoff === "boolean"
        ? ` (\`${retryBackoff}\` is now "${retryBackoff ? "exponential" : "fixed"}")`
        : "";
    throw new TypeError(`enqueueTo: retryBackoff must be "exponential" or "fixed"${was}`);
  }
  const retryDelaySeconds = wholeNumber(value("retryDelaySeconds"), "enqueueTo: retryDelaySeconds");
  const keepVerifiedBody = value("keepVerifiedBody");
  if (typeof keepVerifiedBody !== "boolean") throw new TypeError("enqueueTo: keepVerifiedBody must be true or false");
  return {
    timeoutMs: positiveInteger(value("timeoutMs"), "enqueueTo: timeoutMs"),
    attempts: positiveInteger(value("attempts"), "enqueueTo: attempts"),
    retryDelaySeconds,
    retryBackoff,
    keepCompletedSeconds: positiveInteger(value("keepCompletedSeconds"), "enqueueTo: keepCompletedSeconds"),
    keepVerifiedBody,
    batch: value("batch"),
  };
}

/**
 * What `createWorker`'s options hold for core: the queue, how many jobs run at once, and core's own worker options,
 * picked by name so that an engine lists none of them.
 *
 * @example
 * ```ts
 * import { pickWorkerOptions, type WorkerSetup } from "@tidings/core/dispatch";
 *
 * const setup: WorkerSetup = pickWorkerOptions({ queue: "deliveries", orderWaitMs: 500 }, { concurrency: 1 }, {
 *   engine: "SQS",
 *   group: "sqs",
 * });
 * console.log(setup.queue, setup.concurrency, setup.worker); // deliveries 1 { orderWaitMs: 500 }
 * ```
 */
export interface WorkerSetup<Events extends EventMap = MessageEvents> {
  /** The queue's name, checked: a non-empty string. */
  queue: string;
  /** Jobs run at once: the option, or the package's default, checked. */
  concurrency: number;
  /** For `QueueWorker`'s constructor. */
  worker: QueueWorkerOptions<Events>;
}

/**
 * Checks `createWorker`'s options (a TypeError at setup names an option of a former name and what replaces it, or
 * an unknown option and where the engine's own options go) and picks out what core takes, so a worker option core
 * gains reaches every engine with no edit there. The engine reads its handle and its group itself.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { pickWorkerOptions, QueueWorker, type SharedWorkerOptions } from "@tidings/core/dispatch";
 *
 * interface ListWorkerOptions extends SharedWorkerOptions<MessageEvents> {
 *   jobs: unknown[];
 *   list?: { pollMs?: number };
 * }
 *
 * // A third engine's worker: core's options reach QueueWorker without being named here.
 * export class ListWorker extends QueueWorker<MessageEvents> {
 *   constructor(options: ListWorkerOptions) {
 *     const { queue, worker } = pickWorkerOptions(options, { concurrency: 1 }, {
 *       engine: "list",
 *       group: "list",
 *       handles: ["jobs"],
 *     });
 *     super(worker, { system: "list", queue });
 *   }
 *   async close(): Promise<void> {}
 * }
 * ```
 */
export function pickWorkerOptions<Events extends EventMap>(
  options: SharedWorkerOptions<Events>,
  defaults: Pick<SharedQueueDefaults, "concurrency">,
  names: EngineOptionNames,
): WorkerSetup<Events> {
  refuseUnknownOptions("createWorker", options, WORKER_KEYS, names);
  const { queue } = options;
  if (typeof queue !== "string" || queue === "") {
    throw new TypeError("createWorker: `queue` must be the name of the queue enqueueTo writes to");
  }
  const worker: Record<string, unknown> = {};
  for (const key of Object.keys(CORE_WORKER_KEYS) as (keyof QueueWorkerOptions)[]) {
    if (options[key] !== undefined) worker[key] = options[key];
  }
  return {
    queue,
    concurrency: positiveInteger(options.concurrency ?? defaults.concurrency, "createWorker: concurrency"),
    worker: worker as QueueWorkerOptions<Events>,
  };
}

function refuseUnknownOptions(
  call: "enqueueTo" | "createWorker",
  options: object,
  shared: Record<string, true>,
  { engine, group, handles = [], formerly = {} }: EngineOptionNames,
): void {
  if (typeof options !== "object" || options === null) throw new TypeError(`${call}: options must be an object`);
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || Object.hasOwn(shared, key) || key === group || handles.includes(key)) continue;
    if (Object.hasOwn(formerly, key)) throw new TypeError(`${call}: \`${key}\` is now ${formerly[key]}`);
    const own =
      group === undefined
        ? `and ${engine}'s ${call} has none of its own`
        : `if it is ${engine}'s own, it goes in \`${group}: { ${key} }\``;
    throw new TypeError(
      `${call}: \`${key}\` is not an option every engine takes (${Object.keys(shared).join(", ")}), ${own}`,
    );
  }
}
