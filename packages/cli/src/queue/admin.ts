import type { FailedDelivery } from "@tidings/core/dispatch";

/** One state's job count, as `tidings queue stats` prints it. */
export interface StateCount {
  state: string;
  count: number;
}

/** A job found by its id or by the delivery key it carries. */
export interface FoundJob {
  jobId: string;
  state: string;
}

/**
 * What `tidings queue` does to one queue, on a connection of its own. It only reads, and retries failed jobs: it never
 * creates a queue, a schema or a table, nor migrates one.
 */
export interface AdminQueue {
  /** `BullMQ` or `pg-boss`. */
  readonly engine: string;
  /** Whether the engine has ever seen this queue. */
  exists(): Promise<boolean>;
  /** The names of the queues the engine has here, for a "did you mean". */
  queueNames(): Promise<string[]>;
  failed(limit: number): Promise<FailedDelivery[]>;
  /** The job with this id, or else the job of this delivery key (`event:evt_…`, as logs and `ctx.deliveryKey` show it). */
  find(idOrDeliveryKey: string): Promise<FoundJob | undefined>;
  /** Moves failed jobs back to the queue; resolves to how many moved. */
  retry(jobIds: readonly string[] | "all"): Promise<number>;
  stats(): Promise<StateCount[]>;
  close(): Promise<void>;
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
