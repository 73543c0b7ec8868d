import { positiveInteger } from "../ground/whole-numbers";

/**
 * How concurrent enqueues share one engine write.
 *
 * @example
 * ```ts
 * import { enqueueTo } from "@tidings/pg-boss";
 * import type { BatchOptions } from "@tidings/core/dispatch";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss("postgres://localhost:5432/app");
 * await boss.start();
 *
 * // Up to 50 jobs per insert; never wait for a write in flight.
 * const batch: BatchOptions = { maxJobs: 50, maxWaitMs: 0 };
 * export const enqueue = enqueueTo({ boss, queue: "deliveries" }, { batch });
 * ```
 */
export interface BatchOptions {
  /** The most jobs in one engine write; a batch that fills up is written at once. Default 100. */
  maxJobs?: number;
  /**
   * The longest a job waits for others to join its batch while an earlier batch is still being written, in ms.
   * When no write is in flight, a batch is written as soon as the deliveries that arrived with it have joined it (the
   * current turn of the event loop), so a lone delivery does not wait. `0`: never wait for a write in flight; each
   * turn's deliveries are written at the end of that turn. Default 1.
   */
  maxWaitMs?: number;
}

/**
 * Group commit's defaults: at most 100 jobs per engine write, and at most 1 ms of waiting for a write in flight.
 *
 * @example
 * ```ts
 * import { enqueueTo } from "@tidings/bullmq";
 * import { BATCH_DEFAULTS } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * // The default wait, bigger batches.
 * export const enqueue = enqueueTo(queue, { batch: { ...BATCH_DEFAULTS, maxJobs: 500 } });
 * ```
 */
export const BATCH_DEFAULTS = { maxJobs: 100, maxWaitMs: 1 } as const satisfies Required<BatchOptions>;

/** Runs a write in a caller's context (an enqueue trace's `around`). */
type Around = <T>(write: () => T) => T;

interface Batch<Job> {
  jobs: Job[];
  around: Around | undefined;
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: jobs added while a batch is open go to the engine in one write, and each add resolves once the write
 * holding its job has succeeded, or rejects with its error. A batch is written when it holds `maxJobs`; when no
 * write is in flight (or `maxWaitMs` is 0), at the end of the current turn of the event loop; otherwise when every
 * write in flight has settled or `maxWaitMs` after the batch opened, whichever comes first.
 */
export class GroupCommit<Job> {
  readonly #write: (jobs: Job[]) => PromiseLike<unknown>;
  readonly #maxJobs: number;
  readonly #maxWaitMs: number;
  #open: Batch<Job> | undefined;
  #inFlight = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #immediate = false;

  constructor(write: (jobs: Job[]) => PromiseLike<unknown>, options: BatchOptions = {}) {
    this.#write = write;
    this.#maxJobs = positiveInteger(options.maxJobs ?? BATCH_DEFAULTS.maxJobs, "batch.maxJobs");
    const maxWaitMs = options.maxWaitMs ?? BATCH_DEFAULTS.maxWaitMs;
    if (!(Number.isFinite(maxWaitMs) && maxWaitMs >= 0)) {
      throw new TypeError("batch.maxWaitMs must be a number of milliseconds, 0 or more");
    }
    this.#maxWaitMs = maxWaitMs;
  }

  /** Adds a job to the open batch; `around`, if given, runs the batch's write unless an earlier job's does. */
  add(job: Job, around?: Around): Promise<void> {
    let batch = this.#open;
    if (batch === undefined) {
      batch = this.#openBatch();
      if (this.#inFlight === 0 || this.#maxWaitMs === 0) this.#flushAfterThisTurn();
      else this.#timer = setTimeout(this.#flushOnTimer, this.#maxWaitMs);
    }
    batch.jobs.push(job);
    if (around !== undefined && batch.around === undefined) batch.around = around;
    const { promise } = batch;
    if (batch.jobs.length >= this.#maxJobs) this.#flush();
    return promise;
  }

  #openBatch(): Batch<Job> {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((resolved, rejected) => {
      resolve = resolved;
      reject = rejected;
    });
    const batch: Batch<Job> = { jobs: [], around: undefined, promise, resolve, reject };
    this.#open = batch;
    return batch;
  }

  #flushAfterThisTurn(): void {
    if (this.#immediate) return;
    this.#immediate = true;
    setImmediate(this.#flushOnImmediate);
  }

  readonly #flushOnImmediate = (): void => {
    this.#immediate = false;
    this.#flush();
  };

  readonly #flushOnTimer = (): void => {
    this.#timer = undefined;
    this.#flush();
  };

  readonly #settled = (): void => {
    this.#inFlight--;
    if (this.#inFlight === 0 && this.#open !== undefined) this.#flush();
  };

  #flush(): void {
    const batch = this.#open;
    if (batch === undefined) return;
    this.#open = undefined;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#inFlight++;
    let writing: PromiseLike<unknown>;
    try {
      const write = () => this.#write(batch.jobs);
      writing = batch.around === undefined ? write() : batch.around(write);
    } catch (error) {
      writing = Promise.reject(error);
    }
    Promise.resolve(writing).then(batch.resolve, batch.reject).finally(this.#settled);
  }
}
