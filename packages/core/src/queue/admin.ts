/** A job that used up its attempts, as `tidings queue failed` lists it. */
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

/** Jobs by state, each counted once. The optional states are those one engine has and the other has not. */
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

/** A job found by its id or by the delivery key it carries. */
export interface FoundJob {
  jobId: string;
  state: string;
}

/**
 * One queue, administered on a connection of its own (`openQueueAdmin` of each engine package). It only reads, and
 * moves failed jobs back to the queue: it never creates a queue, a schema or a table, nor migrates one.
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

/** Why `openQueueAdmin` or one of its operations failed: a `code` to act on, and a one-line message. */
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

/** A `QueueAdminError`, also one thrown by another copy of this package (as a CLI's own dependency may be). */
export function isQueueAdminError(error: unknown): error is QueueAdminError {
  return (
    error instanceof Error && error.name === "QueueAdminError" && typeof (error as { code?: unknown }).code === "string"
  );
}

/** A connection URL without its user name and password, for messages. */
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

/** Why a connection failed, in a word where there is one: `ECONNREFUSED`, `ENOTFOUND`, … */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === "string" && message !== "" ? message : String(error);
}

/** The unknown-queue error, naming the queues the engine has (at most the first 50 given). */
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
