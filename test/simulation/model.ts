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
}

/** One run of an event's handlers, from its start to its end (or its process's death). */
export interface Run {
  id: number;
  event: SimEvent;
  process: number;
  /** The request whose handlers these are (a job id for a worker). */
  request: number;
  lease: Lease | undefined;
  startedAt: number;
  endedAt: number | undefined;
  outcome: "running" | "ok" | "failed" | "killed";
  /** After the handlers succeeded, the done mark was reported never written (`store_unavailable`). */
  doneMarkLost: boolean;
  /** The sender was answered 2xx (a worker: the engine was told the job completed). */
  acknowledged: boolean;
  /** When its process was killed, if that happened before its claim settled. */
  killedAt: number | undefined;
}

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
  /** Per object, the position the app's handlers last wrote, and by which run. */
  readonly #written = new Map<string, { position: number; run: Run }>();
  #runs = 0;

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

  /** What the store answered, applied: claims granted, settles accepted, positions recorded, stale verdicts. */
  observe(process: number, call: StoreCall, answer: unknown): void {
    const at = this.now();
    const state = (answer as { state?: string } | null)?.state;
    const position = call.order?.position;
    if ((call.method === "claim" || call.method === "claimInOrder") && state === "claimed") {
      const token = (answer as { token: string }).token;
      const event = this.eventOfKey(call.key);
      if (
        call.order &&
        event &&
        (this.recorded.get(call.order.object) ?? Number.NEGATIVE_INFINITY) >= call.order.position
      ) {
        this.violation(
          `position went backward: ${event.id} at ${call.order.position} claimed although ${this.recorded.get(call.order.object)} was recorded for ${call.order.object}`,
        );
      }
      this.#leases.set(call.key, {
        key: call.key,
        token,
        process,
        grantedAt: at,
        until: at + (call.leaseMs ?? 0),
        settled: false,
      });
    } else if (state === "stale") {
      const event = this.eventOfKey(call.key);
      if (event) this.#staleEvents.add(event.id);
    } else if (answer === true && call.token !== undefined) {
      const lease = this.#leases.get(call.key);
      if (!lease || lease.token !== call.token) return;
      if (call.method === "renew") {
        lease.until = at + (call.leaseMs ?? 0);
        return;
      }
      lease.settled = true;
      if (call.method === "completeInOrder" && call.order && position !== undefined) {
        const before = this.recorded.get(call.order.object) ?? Number.NEGATIVE_INFINITY;
        this.recorded.set(call.order.object, Math.max(before, position));
      }
    }
    this.note(
      `p${process} ${call.method} ${call.key}${position === undefined ? "" : `@${position}`} → ${state ?? answer}`,
    );
  }

  /** Why `run`'s claim lapsed unsettled in a way no correct receiver can prevent; undefined if it did not. */
  #lapseExcuse(run: Run): string | undefined {
    const lease = run.lease;
    if (!lease || lease.settled || this.now() < lease.until) return undefined;
    if (run.killedAt !== undefined && run.killedAt <= lease.until) return "its process was killed before it settled";
    const runningAtExpiry = run.outcome !== "killed" && (run.endedAt === undefined || run.endedAt > lease.until);
    const from = lease.until - this.leaseMs / 2;
    const trouble = this.#troubles.find(
      (t) =>
        (t.process === "all" || t.process === run.process) &&
        t.from <= lease.until &&
        // A clock jump anywhere in the lease shortens it; anything else must fall in its last half to stop renewal.
        (t.what.startsWith("clock jump") ? t.until >= lease.grantedAt : runningAtExpiry && t.until >= from),
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

  /** Handlers start for `event`: checked against every earlier run of it, and of its object. */
  startRun(event: SimEvent, process: number, request: number, key: string): Run {
    const lease = this.#leases.get(key);
    const run: Run = {
      id: ++this.#runs,
      event,
      process,
      request,
      lease: lease && lease.process === process && !lease.settled ? lease : undefined,
      startedAt: this.now(),
      endedAt: undefined,
      outcome: "running",
      doneMarkLost: false,
      acknowledged: false,
      killedAt: undefined,
    };
    this.note(`p${process} run #${run.id} of ${event.id} starts (request ${request})`);
    const before = this.violations.length;
    for (const earlier of this.runs) {
      if (this.violations.length > before) break;
      if (earlier.event.id === event.id && (earlier.outcome === "ok" || earlier.outcome === "running")) {
        const excuse = this.#lapseExcuse(earlier);
        if (!excuse) {
          this.violation(
            `${event.id} ran twice: run #${run.id} started while run #${earlier.id} ${earlier.outcome === "ok" ? "had already succeeded" : "was still running"}; ${this.#why(earlier)}`,
          );
        }
      } else if (
        event.position !== undefined &&
        earlier.event.object === event.object &&
        earlier.event.position !== undefined &&
        earlier.outcome === "running" &&
        !this.#excusedZombie(earlier)
      ) {
        this.violation(
          `${event.id} (position ${event.position}) ran alongside ${earlier.event.id} (position ${earlier.event.position}) of ${event.object}, run #${earlier.id}; ${this.#why(earlier)}`,
        );
      }
    }
    const recorded = this.recorded.get(event.object);
    if (event.position !== undefined && recorded !== undefined && recorded >= event.position) {
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
    if (!ok || position === undefined) return;
    const recorded = this.recorded.get(object);
    if (recorded !== undefined && recorded > position && !this.#excusedZombie({ ...run, outcome: "running" })) {
      this.violation(
        `position went backward: ${run.event.id} wrote position ${position} of ${object} after ${recorded} was recorded`,
      );
    }
    this.#written.set(object, { position, run });
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

  /** A done mark reported never written after handlers that succeeded, for a request. */
  doneMarkLost(request: number): void {
    for (const run of this.runs) if (run.request === request && run.outcome === "ok") run.doneMarkLost = true;
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
