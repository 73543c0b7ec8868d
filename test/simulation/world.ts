import { messageStatusOrder } from "@tidings/core";
import type fc from "fast-check";
import type { VirtualClock } from "./clock";
import { FaultyStore, type StoreCall, type StoreFault } from "./faulty-store";
import { ReferenceModel, type SimEvent } from "./model";
import type { Backing } from "./stores";

/** The lease every receiver and worker takes, and the time a busy object is waited for. */
export const LEASE_MS = 10_000;
export const ORDER_WAIT_MS = 1_000;
/** How long a `slow` store fault delays each call. */
const SLOW_CALL_MS = 3_000;
/** After the schedule, how much virtual time is let pass for retries, leases and timers to play out. */
export const DRAIN_MS = 60 * 60_000;
export const START = Date.parse("2026-03-01T12:00:00Z");
export const quiet = { error() {}, warn() {} };
export const never = new Promise<never>(() => {});

/** What one run of an event's handlers does: how long it takes, and whether it throws. */
export interface HandlerStep {
  ms: number;
  fails: boolean;
}

/** What a handler throws when its schedule says it fails. */
export class ScheduledFailure extends Error {
  override readonly name = "ScheduledFailure";
}

export type FaultKind = StoreFault["kind"];
export type Target = number | "all";

interface FaultWindow {
  target: Target;
  kind: FaultKind;
  until: number;
  ended: Promise<void>;
}

/** `messageStatusOrder`, except that `key` throws for the poison event: what a faulty app rule does. */
export const simOrder: typeof messageStatusOrder = {
  key: (event) => {
    if ((event as { data?: { poison?: unknown } }).data?.poison) throw new Error("order.key threw");
    return messageStatusOrder.key(event);
  },
  position: messageStatusOrder.position,
};

/** The event as the messaging service sends it. */
export function payloadOf(event: SimEvent): { id: string; type: string; data: Record<string, unknown> } {
  const poison = event.type === "message.poison";
  return {
    id: event.id,
    type: poison ? "message.sent" : event.type,
    data: { id: event.object, status: event.type.slice("message.".length), channel: "sms", ...(poison && { poison }) },
  };
}

/** One process (a receiver or a worker): killed, it restarts as a new incarnation; paused, its work waits. */
export class SimProcess {
  incarnation = 0;
  pausedUntil = 0;
  #resume: Promise<void> | undefined;
  #wake: () => void = () => {};

  constructor(readonly id: number) {}

  /** Undefined while the process runs; a promise that settles when it resumes, or never for a dead incarnation. */
  awake(incarnation: number): Promise<void> | undefined {
    if (incarnation !== this.incarnation) return never;
    return this.#resume;
  }

  pause(clock: VirtualClock, ms: number): void {
    const until = clock.now + ms;
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    if (!this.#resume) {
      this.#resume = new Promise((resolve) => {
        this.#wake = resolve;
      });
    }
    const incarnation = this.incarnation;
    clock.setTimeout(() => {
      if (this.incarnation !== incarnation || clock.now < this.pausedUntil || !this.#resume) return;
      this.#resume = undefined;
      this.#wake();
    }, ms);
  }

  restart(): void {
    this.incarnation++;
    this.pausedUntil = 0;
    this.#resume = undefined;
  }
}

/** What every world is run with, drawn by fast-check with the commands. */
export interface WorldOptions {
  processes: number;
  /** Store answers come back in the order fast-check's scheduler picks (else MemoryStore answers in the same turn). */
  asyncStore: boolean;
  events: SimEvent[];
  /** Per event, what its first, second… handler run does (the last repeats). */
  steps: HandlerStep[][];
  /** MemoryStore's `maxEntries` (store pressure); undefined: its default. */
  maxEntries: number | undefined;
  /** A refused call to MemoryStore throws at once, as a synchronous store's would (else it rejects, as Redis's does). */
  syncFaults: boolean;
}

/**
 * What the Receiver world and the worker world share: processes on one virtual clock sharing one store behind a
 * FaultyStore each, store faults, pauses and clock jumps, and a reference model told every store answer.
 */
export abstract class SimWorld<P extends SimProcess = SimProcess> {
  readonly model: ReferenceModel;
  readonly byId: Map<string, SimEvent>;
  readonly #faults: FaultWindow[] = [];

  constructor(
    readonly options: WorldOptions,
    readonly scheduler: fc.Scheduler,
    readonly clock: VirtualClock,
    readonly backing: Backing,
    readonly processes: P[],
    /** The event a store key belongs to. */
    eventOfKey: (key: string) => SimEvent | undefined,
  ) {
    this.byId = new Map(options.events.map((event) => [event.id, event]));
    this.model = new ReferenceModel(clock.wallNow, LEASE_MS, eventOfKey);
    this.model.doneKeysEvictableAfterMs = backing.doneKeysEvictableAfterMs;
  }

  /** Lets everything started settle: a real store's answers and the scheduler's turns, one at a time. */
  readonly settle = async (): Promise<void> => {
    const gate = this.backing.gate;
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (gate && gate.waiting > 0) {
        await gate.releaseOne();
        continue;
      }
      if (this.scheduler.count() === 0) return;
      await this.scheduler.waitOne();
    }
  };

  /** The shared store as one incarnation of a process sees it: its faults, its pauses, its death. */
  storeFor(process: P): FaultyStore {
    const incarnation = process.incarnation;
    return new FaultyStore(this.backing.store, {
      fault: (call) => this.#faultFor(process.id, call),
      before: (call) => {
        const awake = process.awake(incarnation);
        if (!this.options.asyncStore) return awake;
        const label = `p${process.id} ${call.method} ${call.key}`;
        return (awake ?? Promise.resolve()).then(() => this.scheduler.schedule(Promise.resolve(), label));
      },
      observe: (call, answer) => this.model.observe(process.id, call, answer),
      failSynchronously: this.options.syncFaults,
    });
  }

  /**
   * One run of `sim`'s handlers in `process`, as the schedule says: it takes its time (waiting out pauses), writes
   * its position as a status-tracking app does (the model's `endRun`) and throws when it is to fail.
   */
  runHandlers(
    process: P,
    incarnation: number,
    sim: SimEvent,
    request: number,
    key: string | undefined,
    ordered: boolean,
  ): unknown {
    // A killed process runs nothing more.
    if (process.incarnation !== incarnation) return never;
    const model = this.model;
    const runs = model.runs.filter((run) => run.event.id === sim.id).length;
    const steps = this.options.steps[sim.index] ?? [];
    const step = steps[Math.min(runs, steps.length - 1)] ?? { ms: 0, fails: false };
    const run = model.startRun(sim, process.id, request, key, ordered);
    const finish = () => {
      model.endRun(run, !step.fails);
      if (step.fails) throw new ScheduledFailure("the handler failed, as scheduled");
    };
    if (step.ms === 0 && process.awake(incarnation) === undefined) return finish();
    return (async () => {
      if (step.ms > 0) await new Promise((resolve) => this.clock.setTimeout(() => resolve(undefined), step.ms));
      await process.awake(incarnation);
      return finish();
    })();
  }

  #faultFor(process: number, _call: StoreCall): StoreFault | undefined {
    const now = this.clock.now;
    const window = this.#faults.find((f) => f.until > now && (f.target === "all" || f.target === process));
    if (!window) return undefined;
    switch (window.kind) {
      case "fail":
        return { kind: "fail" };
      case "lost-reply":
        return { kind: "lost-reply" };
      case "hang":
        return { kind: "hang", until: window.ended };
      case "slow":
        return { kind: "slow", until: new Promise((resolve) => this.clock.setTimeout(resolve, SLOW_CALL_MS)) };
    }
  }

  process(index: number): P {
    return this.processes[index % this.processes.length] as P;
  }

  async advance(ms: number): Promise<void> {
    await this.clock.advance(ms, this.settle, this.backing.passTime);
  }

  storeFault(target: Target, kind: FaultKind, ms: number): void {
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const wall = this.clock.wallNow();
    this.#faults.push({ target, kind, until: this.clock.now + ms, ended });
    this.clock.setTimeout(end, ms);
    // A slow call made in the window is applied that much after it.
    const reach = ms + (kind === "slow" ? SLOW_CALL_MS : 0);
    this.model.trouble(target, wall, wall + reach, `store ${kind} for ${ms} ms`);
    this.model.note(`store ${kind} for ${target === "all" ? "every process" : `p${target}`}, ${ms} ms`);
  }

  pause(index: number, ms: number): void {
    const process = this.process(index);
    const wall = this.clock.wallNow();
    process.pause(this.clock, ms);
    this.model.trouble(process.id, wall, wall + ms, `process paused for ${ms} ms`);
    this.model.note(`p${process.id} paused for ${ms} ms`);
  }

  jumpClock(ms: number): void {
    const wall = this.clock.wallNow();
    this.model.clockJumped(ms);
    this.clock.jumped += ms;
    this.model.trouble("all", wall, wall + ms, `clock jump of ${ms} ms`);
    this.model.note(`wall clock jumps ${ms} ms`);
  }

  /** Kills a process, which restarts at once as a new incarnation. */
  abstract kill(index: number): void;

  /** Lets every retry, lease and timer play out, then checks what must hold once everything has. */
  abstract drain(): Promise<void>;

  /**
   * After a run, however it ended: fires what timers are left, so nothing of it (core's shared deadline lanes are
   * module state) is left waiting on a clock that no longer runs, and the next run starts from the same state.
   */
  async quiesce(): Promise<void> {
    for (let rounds = 0; rounds < 100 && this.clock.pending > 0; rounds++) {
      try {
        await this.advance(DRAIN_MS);
      } catch {
        // The run has failed already; only its timers matter now.
      }
    }
  }
}
