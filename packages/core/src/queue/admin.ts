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

/** Jobs by state. `waiting` includes jobs waiting for a retry. */
export interface QueueCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
}

/** What `tidings queue` does to a queue; each engine package implements it on its own client. */
export interface QueueAdmin {
  failed(limit?: number): Promise<FailedDelivery[]>;
  /** Re-runs failed jobs (these ids, or every failed job); resolves to how many were moved back to the queue. */
  retry(ids: readonly string[] | "all"): Promise<number>;
  stats(): Promise<QueueCounts>;
  close(): Promise<void>;
}
