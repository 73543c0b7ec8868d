import type { StoreCall } from "./faulty-store";

/** An event the sender sends: ordered when it has an object and a position. */
export interface SimEvent {
  index: number;
  id: string;
  type: string;
  object: string;
  position: number | undefined;
}

/** The store's record of one claim, as the reference model learns it from the calls it saw answered. */
interface Lease {
  key: string;
  token: string;
  process: number;
  grantedAt: number;
  until: number;
  settled: boolean;
  settledAt: number;
}

/** One run of an event's handlers, from its start to its end (or its process's death). */
export interface Run {
  id: number;
  event: SimEvent;
  process: number;
  /** The request whose handlers these are (a worker: the job's run). */
  request: number;
  /** A claim in the store stood for this run: a copy of its event must not run while it holds, nor after it settled. */
  deduped: boolean;
  /** Run under `order`: one position of its object at a time, never below the recorded one. */
  ordered: boolean;
  lease: Lease | undefined;
  startedAt: number;
  endedAt: number | undefined;
  outcome: "running" | "ok" | "failed" | "killed";
  /** After the handlers succeeded, the done mark was reported never written (`store_unavailable`). */
  doneMarkLost: boolean;
  /** The sender was answered 2xx (a worker: the engine was told the job completed). */
  acknowledged: boolean;
  /** When its request was first answered, whatever the answer. */
  answeredAt: number | undefined;
  /** When its process was killed, if that happened before its claim settled. */
  killedAt: number | undefined;
  /**
   * Why the queue engine may run this job's event again without any claim to stop it (the engine took the job back,
   * or forgot it): what lets a run that no store dedups (a worker's unordered job) run twice.
   */
  engineLapse: string | undefined;
}

/** The longest wait between two attempts to settle a claim (core's `settleWithin`). */
const SETTLE_RETRY_MS = 1_000;

/** A span of wall time when a process could not reach the store or run at all: why a lease may lapse. */
interface Trouble {
  process: number | "all";
  from: number;
  until: number;
  what: string;
}

/**
 * The reference model: every handler run, every lease the store granted, every fault, and the invariants checked
 * against them as things happen. Times are the wall clock's (what leases count).
 */
export class ReferenceModel {
  readonly violations: string[] = [];
  readonly log: string[] = [];
  readonly runs: Run[] = [];
  /** The claim most recently granted on each key. */
  readonly #leases = new Map<string, Lease>();
  readonly #troubles: Trouble[] = [];
  /** Per object, the highest position the store recorded as handled. */
  readonly recorded = new Map<string, number>();
  /** Events the store marked done without running them (stale). */
  readonly #staleEvents = new Set<string>();
  #runs = 0;
  /** Requests (a worker's job runs) the engine took back, and why. */
  readonly #lapsedRequests = new Map<number, string>();
  /**
   * With MemoryStore past `maxEntries`: done keys completed this long ago may be evicted, so a later copy of an event
   * no position protects may run again. Undefined: done keys are kept for their TTL.
   */
  doneKeysEvictableAfterMs: number | undefined;

  readonly #start: number;

  constructor(
    readonly now: () => number,
    readonly leaseMs: number,
    /** The event a store key belongs to. */
    readonly eventOfKey: (key: string) => SimEvent | undefined,
  ) {
    this.#start = now();
  }

  note(line: string): void {
    this.log.push(`t+${String(this.now() - this.#start).padStart(8)} ${line}`);
  }

  violation(message: string): void {
    this.note(`VIOLATION ${message}`);
    this.violations.push(message);
  }

  /** A span in which `process` (or every process) could not renew: a store fault, a pause, a kill, a clock jump. */
  trouble(process: number | "all", from: number, until: number, what: string): void {
    this.#troubles.push({ process, from, until, what });
  }

  /**
   * The wall clock was stepped `ms` forward: faults and pauses still under way last on in monotonic time, so they now
   * end that much later on the wall clock.
   */
  clockJumped(ms: number): void {
    const at = this.now();
    for (const trouble of this.#troubles) if (trouble.until > at) trouble.until += ms;
  }

  /** What the store answered, applied: claims granted, settles accepted, positions recorded, stale verdicts. */
  observe(process: number, call: StoreCall, answer: unknown): void {
    const at = this.now();
    const state = (answer as { state?: string } | null)?.state;
    const position = call.order?.position;
    const event = this.eventOfKey(call.key);
    // The event's own object: a store object may carry a scope (a worker's `job:<queue>:`).
    const object = event?.object ?? call.order?.object;
    if ((call.method === "claim" || call.method === "claimInOrder") && state === "claimed") {
      const token = (answer as { token: string }).token;
      const recorded = object === undefined ? undefined : this.recorded.get(object);
      if (position !== undefined && event && recorded !== undefined && recorded >= position) {
        this.violation(
          `position went backward: ${event.id} at ${position} claimed although ${recorded} was recorded for ${object}`,
        );
      }
      this.#leases.set(call.key, {
        key: call.key,
        token,
        process,
        grantedAt: at,
        until: at + (call.leaseMs ?? 0),
        settled: false,
        settledAt: 0,
      });
    } else if (state === "stale") {
      if (event) this.#staleEvents.add(event.id);
    } else if (answer === true && call.token !== undefined) {
      const lease = this.#leases.get(call.key);
      if (!lease || lease.token !== call.token) return;
      if (call.method === "renew") {
        lease.until = at + (call.leaseMs ?? 0);
        return;
      }
      lease.settled = true;
      lease.settledAt = at;
      if (call.method === "completeInOrder" && object !== undefined && position !== undefined) {
        const before = this.recorded.get(object) ?? Number.NEGATIVE_INFINITY;
        this.recorded.set(object, Math.max(before, position));
      }
    }
    this.note(
      `p${process} ${call.method} ${call.key}${position === undefined ? "" : `@${position}`} → ${state ?? answer}`,
    );
  }

  /** Why `run`'s claim lapsed unsettled in a way no correct receiver can prevent; undefined if it did not. */
  #lapseExcuse(run: Run): string | undefined {
    const lease = run.lease;
    const evictableAfter = this.doneKeysEvictableAfterMs;
    if (lease?.settled && evictableAfter !== undefined && this.now() - lease.settledAt >= evictableAfter) {
      return `its done key was ${evictableAfter} ms old, past which MemoryStore at maxEntries may evict it`;
    }
    if (!lease || lease.settled || this.now() < lease.until) return undefined;
    if (run.killedAt !== undefined && run.killedAt <= lease.until) return "its process was killed before it settled";
    const runningAtExpiry = run.outcome !== "killed" && (run.endedAt === undefined || run.endedAt > lease.until);
    // Handlers that succeeded after their fate was out of their hands: their answer had left (a 503 at the time
    // limit), or the engine had taken their job back. Then only a done mark written before the lease ran out stops
    // the next copy from running them again.
    const outOfHands =
      run.outcome === "ok" &&
      (run.engineLapse !== undefined ||
        (run.answeredAt !== undefined && run.endedAt !== undefined && run.answeredAt <= run.endedAt));
    // Renewal needs the store (and the process) in the lease's last half. Settling is tried from the handlers' end for
    // half a lease (or until the lease ends), attempts up to a second apart: trouble near that end defeats it.
    const settleEnd = Math.min(lease.until, (run.endedAt ?? 0) + this.leaseMs / 2) - SETTLE_RETRY_MS;
    const from = runningAtExpiry ? lease.until - this.leaseMs / 2 : Math.max(run.endedAt ?? 0, settleEnd);
    const trouble = this.#troubles.find(
      (t) =>
        (t.process === "all" || t.process === run.process) &&
        t.from <= lease.until &&
        (t.what.startsWith("clock jump")
          ? // A clock jump anywhere in the lease shortens it.
            t.until >= lease.grantedAt
          : // A paused process settles nothing; a store it cannot reach, only once the answer is out of its hands.
            t.until >= from && (runningAtExpiry || outOfHands || t.what.startsWith("process paused"))),
    );
    if (trouble) return `its lease ran out while it could not be renewed (${trouble.what})`;
    if (run.outcome === "ok" && run.doneMarkLost && run.acknowledged) {
      return "its done mark was never written (reported store_unavailable) and it was answered 2xx";
    }
    return undefined;
  }

  /** Why an earlier run's claim did not stop a later one, when nothing excuses it. */
  #why(run: Run): string {
    const lease = run.lease;
    if (!lease) return "the model saw no claim granted to it";
    if (lease.settled) return "its claim had been settled (the store granted a settled key again)";
    if (this.now() < lease.until) return "its claim was still live (the store granted a held key again)";
    if (run.endedAt !== undefined && run.endedAt <= lease.until && run.outcome === "ok") {
      return `its handlers succeeded at t+${run.endedAt - this.#start} but its done mark was never written before its lease ran out at t+${lease.until - this.#start}, and the sender was ${run.acknowledged ? "answered 2xx only after that" : "not answered 2xx, so it retried"}`;
    }
    return `its lease ran out at t+${lease.until - this.#start} while its handlers still ran, with the store reachable and its process alive in the lease's last half (nothing renewed it)`;
  }

  /** A run whose lease lapsed, excusably, with its handlers still running: it may overlap what comes next. */
  #excusedZombie(run: Run): boolean {
    return run.outcome === "running" && this.#lapseExcuse(run) !== undefined;
  }

  /**
   * Handlers start for `event`: checked against every earlier run of it, and of its object. `key` is the store key of
   * the claim that admitted the run (none: nothing dedups it); `ordered`, whether it ran under `order`.
   */
  startRun(event: SimEvent, process: number, request: number, key: string | undefined, ordered: boolean): Run {
    const lease = key === undefined ? undefined : this.#leases.get(key);
    const run: Run = {
      id: ++this.#runs,
      event,
      process,
      request,
      deduped: key !== undefined,
      ordered: ordered && event.position !== undefined,
      lease: lease && lease.process === process && !lease.settled ? lease : undefined,
      startedAt: this.now(),
      endedAt: undefined,
      outcome: "running",
      doneMarkLost: false,
      acknowledged: false,
      answeredAt: undefined,
      killedAt: undefined,
      // A paused worker may start the handlers of a job the engine has already taken back.
      engineLapse: this.#lapsedRequests.get(request),
    };
    this.note(
      `p${process} run #${run.id} of ${event.id} starts (request ${request}${run.ordered ? "" : ", unordered"})`,
    );
    const before = this.violations.length;
    for (const earlier of this.runs) {
      if (this.violations.length > before) break;
      if (earlier.event.id === event.id && (earlier.outcome === "ok" || earlier.outcome === "running")) {
        // A run no claim admitted answers only to the engine; one a claim admitted, to the store.
        const excuse = run.deduped ? this.#lapseExcuse(earlier) : (earlier.engineLapse ?? this.#lapseExcuse(earlier));
        if (!excuse) {
          this.violation(
            `${event.id} ran twice: run #${run.id} started while run #${earlier.id} ${earlier.outcome === "ok" ? "had already succeeded" : "was still running"}; ${this.#why(earlier)}`,
          );
        }
      } else if (
        run.ordered &&
        earlier.ordered &&
        earlier.event.object === event.object &&
        earlier.outcome === "running" &&
        !this.#excusedZombie(earlier)
      ) {
        this.violation(
          `${event.id} (position ${event.position}) ran alongside ${earlier.event.id} (position ${earlier.event.position}) of ${event.object}, run #${earlier.id}; ${this.#why(earlier)}`,
        );
      }
    }
    const recorded = this.recorded.get(event.object);
    if (run.ordered && event.position !== undefined && recorded !== undefined && recorded >= event.position) {
      this.violation(`${event.id} ran at position ${event.position}, though ${recorded} was already recorded`);
    }
    this.runs.push(run);
    return run;
  }

  /** The handlers finished; an ordered one wrote its status, as an app's handler would. */
  endRun(run: Run, ok: boolean): void {
    run.endedAt = this.now();
    run.outcome = ok ? "ok" : "failed";
    this.note(`p${run.process} run #${run.id} of ${run.event.id} ${run.outcome}`);
    const { object, position } = run.event;
    if (!ok || !run.ordered || position === undefined) return;
    const recorded = this.recorded.get(object);
    if (recorded !== undefined && recorded > position && !this.#excusedZombie({ ...run, outcome: "running" })) {
      this.violation(
        `position went backward: ${run.event.id} wrote position ${position} of ${object} after ${recorded} was recorded`,
      );
    }
  }

  killRuns(process: number): void {
    for (const run of this.runs) {
      if (run.process !== process || (run.outcome !== "running" && run.outcome !== "ok")) continue;
      if (run.lease && !run.lease.settled && run.killedAt === undefined) run.killedAt = this.now();
      if (run.outcome === "running") {
        run.outcome = "killed";
        run.endedAt = this.now();
      }
    }
  }

  /** The engine took the job back, or forgot it: its runs so far may be run again where no claim stops them. */
  engineLapsed(request: number, why: string): void {
    if (!this.#lapsedRequests.has(request)) this.#lapsedRequests.set(request, why);
    for (const run of this.runs) if (run.request === request) run.engineLapse ??= why;
  }

  /** The engine forgot every job of the event: its runs so far may be run again where no claim stops them. */
  eventForgotten(eventId: string, why: string): void {
    for (const run of this.runs) if (run.event.id === eventId) run.engineLapse ??= why;
  }

  /** An hour after the schedule, no claim is still held: a renewal never outlives its handlers. */
  checkQuiet(): void {
    for (const lease of this.#leases.values()) {
      if (lease.settled || lease.until <= this.now()) continue;
      this.violation(
        `p${lease.process}'s claim on ${lease.key} is still held an hour after the schedule ended: something renews it`,
      );
    }
  }

  /** A done mark reported never written after handlers that succeeded, for a request. */
  doneMarkLost(request: number): void {
    for (const run of this.runs) if (run.request === request && run.outcome === "ok") run.doneMarkLost = true;
  }

  /** A request was answered, with whatever status. */
  answered(request: number): void {
    for (const run of this.runs) if (run.request === request) run.answeredAt ??= this.now();
  }

  /** A 2xx answer (or a job completed): it must stand for handlers that ran, or a verdict the store recorded. */
  acknowledged(request: number, event: SimEvent, code: string): void {
    if (code === "accepted" || code === "completed") {
      const run = this.runs.find((r) => r.request === request && r.event.id === event.id);
      if (run?.outcome !== "ok") {
        this.violation(`${event.id} answered ${code} (request ${request}) without its handlers having succeeded`);
      }
      for (const r of this.runs) if (r.request === request) r.acknowledged = true;
      return;
    }
    if (code === "duplicate") {
      const handled = this.runs.some((r) => r.event.id === event.id && r.outcome === "ok");
      if (!handled && !this.#staleEvents.has(event.id)) {
        this.violation(`${event.id} answered duplicate (request ${request}) but was never handled nor found stale`);
      }
      return;
    }
    if (code === "stale") {
      const recorded = this.recorded.get(event.object);
      if (event.position === undefined || recorded === undefined || recorded < event.position) {
        this.violation(`${event.id} answered stale (request ${request}) with position ${recorded} recorded`);
      }
      return;
    }
    this.violation(`${event.id} answered 2xx with an unknown code ${code}`);
  }
}
