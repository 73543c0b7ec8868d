/**
 * A job that used up its attempts, as `tidings queue failed` lists it.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/bullmq";
 * import type { FailedDelivery } from "@tidings/core/dispatch";
 *
 * const line = (job: FailedDelivery) => `${job.id} ${job.deliveryKey}, ${job.attempts} runs: ${job.error}`;
 *
 * const admin = await openQueueAdmin({ redis: "redis://127.0.0.1:6379", queue: "deliveries" });
 * for (const job of await admin.failed(20)) console.log(line(job));
 * await admin.close();
 * ```
 */
export interface FailedDelivery {
  /** The engine's job id: what `retry` takes. */
  id: string;
  type: string;
  deliveryKey: string;
  /** How many times it ran. */
  attempts: number;
  /** The last error's message. */
  error: string;
  failedAt?: Date;
}

/**
 * Jobs by state, each counted once. The optional states are those one engine has and the other has not.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/pg-boss";
 * import type { QueueCounts } from "@tidings/core/dispatch";
 *
 * const admin = await openQueueAdmin({ postgres: "postgres://localhost:5432/app", queue: "deliveries" });
 * const counts: QueueCounts = await admin.stats();
 * console.log(`${counts.waiting} waiting, ${counts.active} active, ${counts.failed} failed`);
 * await admin.close();
 * ```
 */
export interface QueueCounts {
  /** Ready to run, retries whose delay is over included. */
  waiting: number;
  /** BullMQ only: ready to run, taken by priority. */
  prioritized?: number;
  /** To run later: a retry's backoff, or a delay. */
  delayed: number;
  active: number;
  completed: number;
  failed: number;
  /** pg-boss only. */
  cancelled?: number;
}

/**
 * A job found by its id or by the delivery key it carries.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/bullmq";
 * import type { FoundJob } from "@tidings/core/dispatch";
 *
 * // Where is the job of the delivery a log line names?
 * const admin = await openQueueAdmin({ redis: "redis://127.0.0.1:6379", queue: "deliveries" });
 * const found: FoundJob | undefined = await admin.find("event:evt_1");
 * console.log(found ? `job ${found.jobId} is ${found.state}` : "no job for it");
 * await admin.close();
 * ```
 */
export interface FoundJob {
  jobId: string;
  state: string;
}

/**
 * One queue, administered on a connection of its own (`openQueueAdmin` of each engine package). It only reads, and
 * moves failed jobs back to the queue: it never creates a queue, a schema or a table, nor migrates one.
 *
 * @example
 * ```ts
 * import type { QueueAdmin } from "@tidings/core/dispatch";
 * import { openQueueAdmin } from "@tidings/pg-boss";
 *
 * // Either engine's admin: once the bug is fixed, run every failed job again.
 * export async function retryAll(admin: QueueAdmin): Promise<void> {
 *   try {
 *     const moved = await admin.retry("all");
 *     console.log(`${moved} jobs back on ${admin.engine} queue ${admin.queue}`);
 *   } finally {
 *     await admin.close();
 *   }
 * }
 *
 * await retryAll(await openQueueAdmin({ postgres: "postgres://localhost:5432/app", queue: "deliveries" }));
 * ```
 */
export interface QueueAdmin {
  /** `BullMQ` or `pg-boss`. */
  readonly engine: string;
  readonly queue: string;
  /** Jobs that used up their attempts, oldest first; at most `limit` (default 100). */
  failed(limit?: number): Promise<FailedDelivery[]>;
  /** The job with this id, or else the job of this delivery key (`event:evt_…`, as logs and `ctx.deliveryKey` show it). */
  find(idOrDeliveryKey: string): Promise<FoundJob | undefined>;
  /** Moves failed jobs (these ids, or every failed job) back to the queue; resolves to how many moved. */
  retry(ids: readonly string[] | "all"): Promise<number>;
  stats(): Promise<QueueCounts>;
  close(): Promise<void>;
}

/**
 * What went wrong, in a word a caller can act on: each engine's admin throws these.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/bullmq";
 * import { isQueueAdminError, type QueueAdminErrorCode } from "@tidings/core/dispatch";
 *
 * const HINTS: Record<QueueAdminErrorCode, string> = {
 *   unreachable: "is the server running, and the URL right?",
 *   connection_lost: "try again",
 *   unknown_queue: "check the queue's name",
 *   no_schema: "start a worker once: it creates the schema",
 *   schema_version: "install the engine version the workers run",
 * };
 *
 * try {
 *   const admin = await openQueueAdmin({ redis: "redis://127.0.0.1:6379", queue: "deliveries" });
 *   console.log(await admin.stats());
 *   await admin.close();
 * } catch (error) {
 *   if (!isQueueAdminError(error)) throw error;
 *   console.error(`${error.message}: ${HINTS[error.code]}`);
 * }
 * ```
 */
export type QueueAdminErrorCode =
  /** The engine's server did not answer when the admin opened. */
  | "unreachable"
  /** The connection dropped during an operation. */
  | "connection_lost"
  /** The engine has never seen this queue; `queues` lists those it has. */
  | "unknown_queue"
  /** pg-boss: the database has no pg-boss schema. */
  | "no_schema"
  /** pg-boss: the schema is at another version than the installed pg-boss works with (`found`, `expected`). */
  | "schema_version";

/**
 * What a `QueueAdminError` knows besides its message: the engine, where (no credentials), and the facts of its code.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/bullmq";
 * import { isQueueAdminError, type QueueAdminErrorDetails } from "@tidings/core/dispatch";
 *
 * const describe = ({ engine, where, queues }: QueueAdminErrorDetails) =>
 *   `${engine} at ${where} has these queues: ${queues?.join(", ")}`;
 *
 * try {
 *   await openQueueAdmin({ redis: "redis://127.0.0.1:6379", queue: "delivries" });
 * } catch (error) {
 *   if (isQueueAdminError(error) && error.code === "unknown_queue") console.error(describe(error.details));
 *   else throw error;
 * }
 * ```
 */
export interface QueueAdminErrorDetails {
  /** `BullMQ` or `pg-boss`. */
  engine: string;
  /** The server's URL without user name and password. */
  where: string;
  queues?: string[];
  schema?: string;
  /** The schema version found in the database; `null` when it holds none. */
  found?: number | null;
  /** The schema version the installed engine works with, and the engine's own version. */
  expected?: number;
  engineVersion?: string;
}

/**
 * Why `openQueueAdmin` or one of its operations failed: a `code` to act on, and a one-line message.
 *
 * @example
 * ```ts
 * import { QueueAdminError, withoutCredentials } from "@tidings/core/dispatch";
 *
 * // In an engine package's openQueueAdmin: the database holds a schema version this engine cannot read.
 * export function checkSchema(url: string, found: number | null, expected: number): void {
 *   if (found === expected) return;
 *   throw new QueueAdminError("schema_version", `the schema is at version ${found}; this engine reads ${expected}`, {
 *     engine: "my-engine",
 *     where: withoutCredentials(url),
 *     found,
 *     expected,
 *   });
 * }
 * ```
 */
export class QueueAdminError extends Error {
  override name = "QueueAdminError";
  constructor(
    readonly code: QueueAdminErrorCode,
    message: string,
    readonly details: QueueAdminErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A `QueueAdminError`, also one thrown by another copy of this package (as a CLI's own dependency may be).
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/pg-boss";
 * import { isQueueAdminError } from "@tidings/core/dispatch";
 *
 * try {
 *   const admin = await openQueueAdmin({ postgres: "postgres://localhost:5432/app", queue: "deliveries" });
 *   console.log(await admin.failed());
 *   await admin.close();
 * } catch (error) {
 *   if (!isQueueAdminError(error)) throw error; // a bug, not the queue's state
 *   console.error(`${error.code}: ${error.message}`); // e.g. unreachable: cannot reach PostgreSQL at …
 *   process.exitCode = 1;
 * }
 * ```
 */
export function isQueueAdminError(error: unknown): error is QueueAdminError {
  return (
    error instanceof Error && error.name === "QueueAdminError" && typeof (error as { code?: unknown }).code === "string"
  );
}

/**
 * A connection URL without its user name and password, for messages.
 *
 * @example
 * ```ts
 * import { withoutCredentials } from "@tidings/core/dispatch";
 *
 * withoutCredentials("redis://worker:s3cret@cache.internal:6379/0"); // "redis://cache.internal:6379/0"
 * withoutCredentials("not a url"); // "the given URL"
 * ```
 */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return "the given URL";
  }
}

/**
 * Why a connection failed, in a word where there is one: `ECONNREFUSED`, `ENOTFOUND`, …
 *
 * @example
 * ```ts
 * import { reasonOf, withoutCredentials } from "@tidings/core/dispatch";
 * import { Redis } from "ioredis";
 *
 * // In an engine package's openQueueAdmin: one line saying why the server could not be reached.
 * export async function connect(url: string): Promise<Redis> {
 *   const connection = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
 *   try {
 *     await connection.connect();
 *     return connection;
 *   } catch (error) {
 *     throw new Error(`cannot reach Redis at ${withoutCredentials(url)}: ${reasonOf(error)}`); // …: ECONNREFUSED
 *   }
 * }
 * ```
 */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === "string" && message !== "" ? message : String(error);
}

/**
 * The unknown-queue error, naming the queues the engine has (at most the first 50 given).
 *
 * @example
 * ```ts
 * import { unknownQueue } from "@tidings/core/dispatch";
 *
 * // In an engine package's openQueueAdmin: a queue the engine has never seen is an error, never created.
 * export function requireQueue(known: string[], queue: string, where: string): void {
 *   if (!known.includes(queue)) throw unknownQueue("my-engine", where, queue, known.slice(0, 50));
 * }
 * ```
 */
export function unknownQueue(engine: string, where: string, queue: string, queues: string[]): QueueAdminError {
  const known = queues.length === 0 ? "it has none" : `its queues: ${queues.join(", ")}`;
  return new QueueAdminError("unknown_queue", `no queue named ${queue} in this ${engine} (${known})`, {
    engine,
    where,
    queues,
  });
}

/**
 * Runs an admin operation; a failure that `lost` recognises as the connection's (it returns the reason) becomes
 * `connection_lost`, naming the `server` (`Redis`, `PostgreSQL`).
 *
 * @example
 * ```ts
 * import { guardConnection, reasonOf, withoutCredentials } from "@tidings/core/dispatch";
 * import { Redis } from "ioredis";
 *
 * const url = "redis://127.0.0.1:6379";
 * const connection = new Redis(url);
 *
 * // An admin operation whose failure, once the connection is down, is a connection_lost QueueAdminError.
 * const waiting = guardConnection(
 *   (queue: string) => connection.llen(`bull:${queue}:wait`),
 *   { engine: "BullMQ", server: "Redis", where: withoutCredentials(url) },
 *   (error) => (connection.status === "ready" ? undefined : reasonOf(error)),
 * );
 * console.log(await waiting("deliveries"));
 * ```
 */
export function guardConnection<Args extends unknown[], Result>(
  operation: (...args: Args) => Promise<Result>,
  { engine, server, where }: { engine: string; server: string; where: string },
  lost: (error: unknown) => string | undefined,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await operation(...args);
    } catch (error) {
      const reason = lost(error);
      if (reason === undefined) throw error;
      throw new QueueAdminError(
        "connection_lost",
        `lost the connection to ${server} at ${where}: ${reason}`,
        { engine, where },
        { cause: error },
      );
    }
  };
}
