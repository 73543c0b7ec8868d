import type { MessageEvents } from "@tidings/core";
import {
  type JobRun,
  type JobRunResult,
  type QueuedDelivery,
  QueueWorker,
  type QueueWorkerOptions,
  toQueuedDelivery,
} from "@tidings/core/dispatch";
import type fc from "fast-check";
import type { VirtualClock } from "./clock";
import { StoreFaultError } from "./faulty-store";
import type { SimEvent } from "./model";
import type { Backing } from "./stores";
import {
  DRAIN_MS,
  LEASE_MS,
  ORDER_WAIT_MS,
  payloadOf,
  quiet,
  ScheduledFailure,
  SimProcess,
  SimWorld,
  simOrder,
  type WorldOptions,
} from "./world";

const QUEUE = "deliveries";
/** The worker's key prefix for the queue's jobs: `job:<queue>:<delivery key>`. */
const KEY_PREFIX = `job:${QUEUE}:`;
/** How long a deferred job waits before it is taken again: QueueWorker's `deferMs`, which engines honour. */
const DEFER_MS = 1_000;
/** Runs of a job before it stays failed, and the wait before retry n: 1 s, 2 s, 4 s… */
const ATTEMPTS = 4;
const RETRY_BASE_MS = 1_000;

/** A worker of the simulated engine: core's QueueWorker, whose protected `run` the engine calls, as engines do. */
class SimWorker extends QueueWorker<MessageEvents> {
  constructor(options: QueueWorkerOptions<MessageEvents>) {
    super(options, { system: "simulated", queue: QUEUE });
  }

  take(data: unknown, job: JobRun): Promise<JobRunResult> {
    return this.run(data, job);
  }

  async close(): Promise<void> {}
}

class WorkerProcess extends SimProcess {
  worker!: SimWorker;
  /** The engine's runs of jobs this process holds. */
  readonly active = new Set<Attempt>();
}

/** How the simulated engine behaves: drawn per schedule, as pg-boss and BullMQ are configured. */
export interface EngineOptions {
  /** Jobs one worker runs at once. */
  concurrency: number;
  /** A run still active after this long is taken back and counted failed (pg-boss's `expireInSeconds`). */
  expireMs: number;
  /** A worker dead or paused this long loses its jobs, which run again (BullMQ's lock and stalled-job check). */
  stallMs: number;
  /** Completed jobs are removed at once, so the event enqueued again is a new job (BullMQ's `removeOnComplete`). */
  removeOnComplete: boolean;
}

export type WorkerWorldOptions = WorldOptions & EngineOptions;

interface Job {
  id: string;
  event: SimEvent;
  data: QueuedDelivery;
  seq: number;
  state: "waiting" | "active" | "completed" | "failed";
  availableAt: number;
  /** Runs that failed (or were taken back): past ATTEMPTS, the job stays in the failed set. */
  failures: number;
  current: Attempt | undefined;
}

/** One run of a job, given to one worker: the model's "request". */
interface Attempt {
  job: Job;
  request: number;
  attempt: number;
  process: WorkerProcess;
  incarnation: number;
}

/**
 * A simulated at-least-once engine (the parts of pg-boss and BullMQ a worker meets) feeding jobs to QueueWorkers with
 * `order`, sharing one store behind a FaultyStore each: jobs enqueued once per event id (the engine dedups by job id),
 * taken by the first free worker, completed or retried with backoff when `run` answers, put back for `deferMs` when
 * deferred, taken back when they expire or their worker dies or pauses past its lock, and failed for good after
 * ATTEMPTS runs.
 */
export class WorkerWorld extends SimWorld<WorkerProcess> {
  readonly #jobs = new Map<string, Job>();
  /** Every job ever made, removed ones too: what must have settled once the schedule has played out. */
  readonly #made: Job[] = [];
  readonly #attempts = new Map<string, Attempt>();
  /** Runs per job id, across the jobs a removed id is made again as: what `attempt` counts. */
  readonly #starts = new Map<string, number>();
  #requests = 0;

  constructor(
    readonly engine: WorkerWorldOptions,
    scheduler: fc.Scheduler,
    clock: VirtualClock,
    backing: Backing,
  ) {
    const processes = Array.from({ length: engine.processes }, (_, id) => new WorkerProcess(id));
    super(engine, scheduler, clock, backing, processes, (key) =>
      this.byId.get(key.slice(`${KEY_PREFIX}event:`.length)),
    );
    for (const process of this.processes) this.#boot(process);
  }

  #boot(process: WorkerProcess): void {
    const incarnation = process.incarnation;
    const model = this.model;
    process.worker = new SimWorker({
      order: simOrder,
      store: this.storeFor(process),
      leaseMs: LEASE_MS,
      orderWaitMs: ORDER_WAIT_MS,
      logger: quiet,
    })
      .onAny((event, context) => {
        const attempt = this.#attempts.get(`${context.jobId}#${context.attempt}`);
        const sim = this.byId.get(String((event as { id?: unknown }).id));
        if (!attempt || !sim) {
          model.violation(`handlers ran for a job the engine never gave: ${context.jobId} run ${context.attempt}`);
          return;
        }
        // Ordered jobs are claimed in the store under the job's key; the others run as the engine gives them.
        const ordered = sim.position !== undefined;
        const key = ordered ? KEY_PREFIX + context.deliveryKey : undefined;
        return this.runHandlers(process, incarnation, sim, attempt.request, key, ordered);
      })
      .onError((_error, info) => {
        if (process.incarnation !== incarnation) return;
        const attempt = this.#attempts.get(`${info.jobId}#${info.attempt}`);
        model.note(`p${process.id} onError ${info.code} (job ${info.jobId} run ${info.attempt})`);
        if (attempt && info.code === "store_unavailable") model.doneMarkLost(attempt.request);
      });
  }

  /** The Receiver hands an event to the engine: a job, unless one with its id is still kept. */
  enqueue(index: number): void {
    const event = this.options.events[index];
    if (!event) return;
    const id = `event:${event.id}`;
    const kept = this.#jobs.get(id);
    if (kept) {
      this.model.note(`enqueue ${event.id}: job ${id} is kept (${kept.state}), nothing added`);
      return;
    }
    // The engine forgot the job: a copy runs again unless a claim stops it.
    if (this.#starts.has(id)) this.model.eventForgotten(event.id, "its job was removed once completed, then enqueued");
    const payload = payloadOf(event);
    const data = toQueuedDelivery(
      payload,
      {
        type: payload.type,
        deliveryKey: id,
        timestamp: Math.floor(this.clock.wallNow() / 1000),
        secretIndex: 0,
        verifiedBody: new TextEncoder().encode(JSON.stringify(payload)),
        headers: {},
      },
      false,
    );
    const job: Job = {
      id,
      event,
      data,
      seq: this.#made.length,
      state: "waiting",
      availableAt: this.clock.now,
      failures: 0,
      current: undefined,
    };
    this.#jobs.set(id, job);
    this.#made.push(job);
    this.model.note(`enqueue ${event.id}: job ${id}`);
    this.#pump();
  }

  /** Gives waiting jobs that are due to free, live, running workers, oldest first. */
  #pump(): void {
    for (const process of this.processes) {
      if (process.awake(process.incarnation) !== undefined) continue;
      while (process.active.size < this.engine.concurrency) {
        const job = this.#nextDue();
        if (!job) return;
        this.#start(job, process);
      }
    }
  }

  #nextDue(): Job | undefined {
    let found: Job | undefined;
    for (const job of this.#jobs.values()) {
      if (job.state !== "waiting" || job.availableAt > this.clock.now) continue;
      if (
        !found ||
        job.availableAt < found.availableAt ||
        (job.availableAt === found.availableAt && job.seq < found.seq)
      )
        found = job;
    }
    return found;
  }

  /** Puts the job back to wait until `at`, and looks again then. */
  #waitUntil(job: Job, at: number): void {
    job.state = "waiting";
    job.current = undefined;
    job.availableAt = at;
    this.clock.setTimeout(() => this.#pump(), Math.max(0, at - this.clock.now));
  }

  #start(job: Job, process: WorkerProcess): void {
    const attemptNo = (this.#starts.get(job.id) ?? 0) + 1;
    this.#starts.set(job.id, attemptNo);
    const attempt: Attempt = {
      job,
      request: ++this.#requests,
      attempt: attemptNo,
      process,
      incarnation: process.incarnation,
    };
    job.state = "active";
    job.current = attempt;
    process.active.add(attempt);
    this.#attempts.set(`${job.id}#${attemptNo}`, attempt);
    this.model.note(`p${process.id} takes job ${job.id} (run ${attemptNo}, request ${attempt.request})`);
    this.clock.setTimeout(
      () => this.#takeBack(attempt, `it ran past expireMs (${this.engine.expireMs} ms)`),
      this.engine.expireMs,
    );
    let running: Promise<JobRunResult>;
    try {
      running = process.worker.take(job.data, { id: job.id, attempt: attemptNo });
    } catch (error) {
      this.model.violation(`the worker's run threw for job ${job.id}: ${String(error)}`);
      return;
    }
    running.then(
      (result) => this.#whenAwake(attempt, () => this.#finished(attempt, result)),
      (error: unknown) => this.#whenAwake(attempt, () => this.#failed(attempt, error)),
    );
  }

  /** What the worker answers reaches the engine once its process runs again; never from a dead one. */
  #whenAwake(attempt: Attempt, deliver: () => void): void {
    const awake = attempt.process.awake(attempt.incarnation);
    if (awake) awake.then(deliver);
    else deliver();
  }

  /** Whether the engine still counts this run as the job's: one taken back (its lock lost) is ignored, as engines do. */
  #holds(attempt: Attempt): boolean {
    attempt.process.active.delete(attempt);
    const holds = attempt.job.current === attempt && attempt.job.state === "active";
    if (!holds) this.model.note(`job ${attempt.job.id} run ${attempt.attempt} ended after the engine took it back`);
    return holds;
  }

  #finished(attempt: Attempt, result: JobRunResult): void {
    const { job } = attempt;
    this.model.note(`p${attempt.process.id} job ${job.id} run ${attempt.attempt}: ${result}`);
    if (!this.#holds(attempt)) {
      // Its answer is ignored: the engine took the job back, and another run has it.
    } else if (result === "deferred") {
      this.#waitUntil(job, this.clock.now + DEFER_MS);
    } else {
      this.model.acknowledged(attempt.request, job.event, result);
      job.state = "completed";
      job.current = undefined;
      if (this.engine.removeOnComplete) this.#jobs.delete(job.id);
    }
    this.#pump();
  }

  #failed(attempt: Attempt, error: unknown): void {
    const { job } = attempt;
    this.model.note(`p${attempt.process.id} job ${job.id} run ${attempt.attempt} failed: ${describe(error)}`);
    const why = this.#unexpected(attempt, error);
    if (why) this.model.violation(`job ${job.id} run ${attempt.attempt} failed ${why}: ${describe(error)}`);
    if (this.#holds(attempt)) this.#retryOrFail(job);
    this.#pump();
  }

  /**
   * Why a run must not have failed so, if it must not: a run fails only with its handlers' failure, the order rule's
   * own, or a store failure before any handler ran (the engine then retries the job). After handlers that succeeded,
   * a failure would run them again.
   */
  #unexpected(attempt: Attempt, error: unknown): string | undefined {
    const runs = this.model.runs.filter((run) => run.request === attempt.request);
    if (runs.some((run) => run.outcome === "ok")) return "after its handlers had succeeded";
    const failures = error instanceof AggregateError ? error.errors : [error];
    const handlerFailure = failures.every((failure) => failure instanceof ScheduledFailure);
    if (handlerFailure && runs.length > 0) return undefined;
    if (runs.length > 0) return "with something other than its handlers' failure";
    // MemoryStore refuses a claim it has no room for with `code: "store_full"`.
    if (error instanceof StoreFaultError || (error as { code?: unknown } | null)?.code === "store_full")
      return undefined;
    if (error instanceof Error && error.message === "order.key threw" && attempt.job.event.type === "message.poison")
      return undefined;
    return "before any handler ran, with neither a store failure nor the order rule's";
  }

  #retryOrFail(job: Job): void {
    job.failures++;
    if (job.failures >= ATTEMPTS) {
      job.state = "failed";
      job.current = undefined;
      this.model.note(`job ${job.id} failed for good after ${job.failures} runs`);
      return;
    }
    this.#waitUntil(job, this.clock.now + RETRY_BASE_MS * 2 ** (job.failures - 1));
  }

  /** The engine gives the job to another run: its lock was lost, or the run expired. */
  #takeBack(attempt: Attempt, why: string): void {
    const { job } = attempt;
    if (job.current !== attempt || job.state !== "active") return;
    this.model.note(`job ${job.id} run ${attempt.attempt} taken back: ${why}`);
    this.model.engineLapsed(attempt.request, `the engine took its job back (${why})`);
    attempt.process.active.delete(attempt);
    this.#retryOrFail(job);
    this.#pump();
  }

  kill(index: number): void {
    const process = this.process(index);
    this.model.note(`p${process.id} killed and restarted`);
    this.model.killRuns(process.id);
    const held = [...process.active];
    process.active.clear();
    process.restart();
    for (const attempt of held) {
      this.clock.setTimeout(
        () => this.#takeBack(attempt, `its worker died ${this.engine.stallMs} ms before`),
        this.engine.stallMs,
      );
    }
    this.#boot(process);
    this.#pump();
  }

  override pause(index: number, ms: number): void {
    super.pause(index, ms);
    const process = this.process(index);
    if (ms >= this.engine.stallMs) {
      for (const attempt of process.active) {
        this.clock.setTimeout(
          () => this.#takeBack(attempt, `its worker was paused past its lock`),
          this.engine.stallMs,
        );
      }
    }
    // It takes jobs again once it resumes.
    this.clock.setTimeout(() => this.#pump(), ms);
  }

  /** Lets every run, retry, deferral and lease play out; then every job has completed or is in the failed set. */
  async drain(): Promise<void> {
    await this.advance(DRAIN_MS);
    this.model.checkQuiet();
    for (const job of this.#made) {
      if (job.state === "completed" || job.state === "failed") continue;
      this.model.violation(`job ${job.id} is still ${job.state} an hour after the schedule ended`);
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError) return `${error.name}: ${error.errors.map(describe).join("; ")}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
