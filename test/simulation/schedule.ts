import fc from "fast-check";
import { VirtualClock } from "./clock";
import type { SimEvent } from "./model";
import type { StoreFactory, StoreKind } from "./stores";
import { type FaultKind, type HandlerStep, type SimWorld, START, type Target, type WorldOptions } from "./world";

/** The events a schedule draws from: three messages' statuses, an unordered event, and (opt-in) a poison one. */
const EVENTS: readonly Omit<SimEvent, "index">[] = [
  { id: "m1-queued", type: "message.queued", object: "m1", position: 1 },
  { id: "m1-sent", type: "message.sent", object: "m1", position: 2 },
  { id: "m1-delivered", type: "message.delivered", object: "m1", position: 3 },
  { id: "m1-failed", type: "message.failed", object: "m1", position: 3 },
  { id: "m2-sent", type: "message.sent", object: "m2", position: 2 },
  { id: "m2-delivered", type: "message.delivered", object: "m2", position: 3 },
  { id: "m2-opened", type: "message.opened", object: "m2", position: undefined },
  { id: "m4-sent", type: "message.sent", object: "m4", position: 2 },
];
/** Its `order.key` throws: `handle()` must still answer, and a worker fail the job as the rule's own failure. */
const POISON: Omit<SimEvent, "index"> = { id: "m3-poison", type: "message.poison", object: "m3", position: 2 };

/** MemoryStore under pressure: fewer entries than the schedule's ordered objects (m1, m2, m4). */
export const PRESSURE_MAX_ENTRIES = 2;

export interface ScheduleSettings {
  /** Send the event whose `order.key` throws. */
  poison: boolean;
  maxCommands: number;
  /** The longest a handler run takes: below LEASE_MS, no handler outlives its lease unless a fault makes it. */
  maxHandlerMs: number;
  /** With `path`, replays one shrunk schedule: what a failure prints as `replayPath`. */
  replayPath?: string | undefined;
  /**
   * MemoryStore's `maxEntries` in every schedule; undefined: drawn, one schedule in four under pressure
   * (PRESSURE_MAX_ENTRIES). Only MemoryStore has it.
   */
  maxEntries?: number | undefined;
  /**
   * A store call the schedule refuses throws at once (MemoryStore answers synchronously), as a synchronous store that
   * fails would. Off: it rejects, as Redis and PostgreSQL do; MemoryStore itself never fails but for `store_full`.
   */
  syncFaults?: boolean | undefined;
}

export const DEFAULT_SETTINGS: ScheduleSettings = { poison: true, maxCommands: 30, maxHandlerMs: 15_000 };

export function events(settings: ScheduleSettings): SimEvent[] {
  const pool = settings.poison ? [...EVENTS, POISON] : EVENTS;
  return pool.map((event, index) => ({ ...event, index }));
}

const step = (maxMs: number): fc.Arbitrary<HandlerStep> =>
  fc.record({
    ms: fc.constantFrom(...[0, 0, 30, 2_000, 6_000, 15_000].filter((ms) => ms <= maxMs)),
    // One run in five throws.
    fails: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  });

/** What a schedule draws of its world's options; the rest follows from the settings. */
export type DrawnOptions = Omit<WorldOptions, "events" | "processes" | "syncFaults">;

/** The world's options: what was drawn, and what the settings say. */
export function fullOptions<O extends DrawnOptions>(settings: ScheduleSettings, drawn: O, processes: number) {
  return { ...drawn, processes, events: events(settings), syncFaults: settings.syncFaults ?? false };
}

/** What every world draws: store answer order, each event's handler runs, and the store's pressure. */
export function worldOptions(settings: ScheduleSettings, store: StoreKind): fc.Arbitrary<DrawnOptions> {
  const pool = events(settings);
  const maxEntries =
    store !== "memory"
      ? fc.constant(undefined)
      : settings.maxEntries !== undefined
        ? fc.constant(settings.maxEntries)
        : fc.constantFrom(undefined, undefined, undefined, PRESSURE_MAX_ENTRIES);
  return fc.record({
    asyncStore: fc.boolean(),
    steps: fc.array(fc.array(step(settings.maxHandlerMs), { minLength: 1, maxLength: 3 }), {
      minLength: pool.length,
      maxLength: pool.length,
    }),
    maxEntries,
  });
}

export type Command<W extends SimWorld> = fc.AsyncCommand<object, W>;

/** Fails the run when the reference model saw an invariant break: its violations and the log leading to them. */
export function assertClean(world: SimWorld): void {
  const { violations, log } = world.model;
  if (violations.length === 0) return;
  throw new Error(
    `${violations.join("\n")}\n--- what happened (virtual ms, wall clock) ---\n${log.slice(-80).join("\n")}`,
  );
}

/** A command that acts, lets what it started settle, and checks the model. */
export abstract class Step<W extends SimWorld> implements Command<W> {
  check(): boolean {
    return true;
  }
  async run(_model: object, world: W): Promise<void> {
    this.act(world);
    await world.settle();
    assertClean(world);
  }
  protected abstract act(world: W): void;
  abstract toString(): string;
}

class Advance implements Command<SimWorld> {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(_model: object, world: SimWorld): Promise<void> {
    await world.advance(this.ms);
    assertClean(world);
  }
  toString(): string {
    return `advance(${this.ms})`;
  }
}

class StoreFault extends Step<SimWorld> {
  constructor(
    readonly target: Target,
    readonly kind: FaultKind,
    readonly ms: number,
  ) {
    super();
  }
  protected act(world: SimWorld): void {
    world.storeFault(this.target, this.kind, this.ms);
  }
  toString(): string {
    return `storeFault(${this.target === "all" ? "all" : `p${this.target}`}, ${this.kind}, ${this.ms})`;
  }
}

class Kill extends Step<SimWorld> {
  constructor(readonly process: number) {
    super();
  }
  protected act(world: SimWorld): void {
    world.kill(this.process);
  }
  toString(): string {
    return `kill(p${this.process})`;
  }
}

class Pause extends Step<SimWorld> {
  constructor(
    readonly process: number,
    readonly ms: number,
  ) {
    super();
  }
  protected act(world: SimWorld): void {
    world.pause(this.process, this.ms);
  }
  toString(): string {
    return `pause(p${this.process}, ${this.ms})`;
  }
}

class JumpClock extends Step<SimWorld> {
  constructor(readonly ms: number) {
    super();
  }
  protected act(world: SimWorld): void {
    world.jumpClock(this.ms);
  }
  toString(): string {
    return `jumpClock(${this.ms})`;
  }
}

/** What both worlds do to their processes and store: time passing, store faults, kills, pauses and clock jumps. */
export function sharedCommands(processes: number) {
  const process = fc.integer({ min: 0, max: processes - 1 });
  // A long advance lets MemoryStore's retention pass between deliveries.
  const advance = fc.constantFrom(1, 50, 500, 2_000, 6_000, 12_000, 12_000, 60_000).map((ms) => new Advance(ms));
  const target = fc.oneof(fc.constant<Target>("all"), process);
  const kind = fc.constantFrom<FaultKind>("fail", "hang", "slow", "lost-reply");
  const fault = fc
    .tuple(target, kind, fc.constantFrom(500, 3_000, 8_000, 30_000))
    .map(([t, k, ms]) => new StoreFault(t, k, ms));
  const kill = process.map((p) => new Kill(p));
  const pause = fc.tuple(process, fc.constantFrom(1_000, 12_000, 40_000)).map(([p, ms]) => new Pause(p, ms));
  const jump = fc.constantFrom(2_000, 30_000).map((ms) => new JumpClock(ms));
  return { process, advance, fault, kill, pause, jump };
}

/** Fast-check's commands, replayable from a shrunk schedule's `replayPath`. */
export function commandsOf<W extends SimWorld>(
  arbitraries: fc.Arbitrary<Command<W>>[],
  settings: ScheduleSettings,
): fc.Arbitrary<Iterable<Command<W>>> {
  return fc.commands(arbitraries, {
    maxCommands: settings.maxCommands,
    ...(settings.replayPath !== undefined && { replayPath: settings.replayPath }),
  });
}

/**
 * Runs one schedule in a world made on a fresh store and the virtual clock: every command checked as it runs, then
 * retries, leases and timers played out and checked.
 */
export async function runWorld<W extends SimWorld>(
  stores: StoreFactory,
  maxEntries: number | undefined,
  make: (clock: VirtualClock, backing: Awaited<ReturnType<StoreFactory["open"]>>) => W,
  schedule: Iterable<Command<W>>,
): Promise<W> {
  const clock = new VirtualClock(START);
  const backing = await stores.open(clock, maxEntries);
  const restore = clock.install();
  let world: W | undefined;
  try {
    world = make(clock, backing);
    const real = world;
    await fc.asyncModelRun(() => ({ model: {}, real }), schedule);
    await world.drain();
    assertClean(world);
    return world;
  } finally {
    await world?.quiesce();
    restore();
  }
}
