import fc from "fast-check";
import type { SimEvent } from "./model";
import { type FaultKind, type HandlerStep, ReceiverWorld, type Target, type WorldOptions } from "./receiver-world";

/** The events a schedule draws from: two messages' statuses, an unordered event, and (opt-in) a poison one. */
const EVENTS: readonly Omit<SimEvent, "index">[] = [
  { id: "m1-queued", type: "message.queued", object: "m1", position: 1 },
  { id: "m1-sent", type: "message.sent", object: "m1", position: 2 },
  { id: "m1-delivered", type: "message.delivered", object: "m1", position: 3 },
  { id: "m1-failed", type: "message.failed", object: "m1", position: 3 },
  { id: "m2-sent", type: "message.sent", object: "m2", position: 2 },
  { id: "m2-delivered", type: "message.delivered", object: "m2", position: 3 },
  { id: "m2-opened", type: "message.opened", object: "m2", position: undefined },
];
/** Its `order.key` throws: `handle()` must still answer. */
const POISON: Omit<SimEvent, "index"> = { id: "m3-poison", type: "message.poison", object: "m3", position: 2 };

type World = ReceiverWorld;
type Command = fc.AsyncCommand<object, World>;

/** Fails the run when the reference model saw an invariant break: its violations and the log leading to them. */
export function assertClean(world: World): void {
  const { violations, log } = world.model;
  if (violations.length === 0) return;
  throw new Error(
    `${violations.join("\n")}\n--- what happened (virtual ms, wall clock) ---\n${log.slice(-80).join("\n")}`,
  );
}

abstract class Step implements Command {
  check(): boolean {
    return true;
  }
  async run(_model: object, world: World): Promise<void> {
    this.act(world);
    await world.settle();
    assertClean(world);
  }
  protected abstract act(world: World): void;
  abstract toString(): string;
}

class Send extends Step {
  constructor(
    readonly event: number,
    readonly process: number,
  ) {
    super();
  }
  protected act(world: World): void {
    world.send(this.event, this.process, "sent by the sender");
  }
  toString(): string {
    return `send(e${this.event}, p${this.process})`;
  }
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(_model: object, world: World): Promise<void> {
    await world.advance(this.ms);
    assertClean(world);
  }
  toString(): string {
    return `advance(${this.ms})`;
  }
}

class StoreFault extends Step {
  constructor(
    readonly target: Target,
    readonly kind: FaultKind,
    readonly ms: number,
  ) {
    super();
  }
  protected act(world: World): void {
    world.storeFault(this.target, this.kind, this.ms);
  }
  toString(): string {
    return `storeFault(${this.target === "all" ? "all" : `p${this.target}`}, ${this.kind}, ${this.ms})`;
  }
}

class Kill extends Step {
  constructor(readonly process: number) {
    super();
  }
  protected act(world: World): void {
    world.kill(this.process);
  }
  toString(): string {
    return `kill(p${this.process})`;
  }
}

class Pause extends Step {
  constructor(
    readonly process: number,
    readonly ms: number,
  ) {
    super();
  }
  protected act(world: World): void {
    world.pause(this.process, this.ms);
  }
  toString(): string {
    return `pause(p${this.process}, ${this.ms})`;
  }
}

class JumpClock extends Step {
  constructor(readonly ms: number) {
    super();
  }
  protected act(world: World): void {
    world.jumpClock(this.ms);
  }
  toString(): string {
    return `jumpClock(${this.ms})`;
  }
}

const PROCESSES = 2;

export interface ScheduleSettings {
  /** Send the event whose `order.key` throws. */
  poison: boolean;
  maxCommands: number;
  /** The longest a handler run takes: below LEASE_MS, no handler outlives its lease unless a fault makes it. */
  maxHandlerMs: number;
  /** With `path`, replays one shrunk schedule: what a failure prints as `replayPath`. */
  replayPath?: string | undefined;
}

export const DEFAULT_SETTINGS: ScheduleSettings = { poison: true, maxCommands: 30, maxHandlerMs: 15_000 };

function events(settings: ScheduleSettings): SimEvent[] {
  const pool = settings.poison ? [...EVENTS, POISON] : EVENTS;
  return pool.map((event, index) => ({ ...event, index }));
}

const step = (maxMs: number): fc.Arbitrary<HandlerStep> =>
  fc.record({
    ms: fc.constantFrom(...[0, 0, 30, 2_000, 6_000, 15_000].filter((ms) => ms <= maxMs)),
    // One run in five throws.
    fails: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  });

function worldOptions(settings: ScheduleSettings): fc.Arbitrary<Omit<WorldOptions, "events" | "processes">> {
  const pool = events(settings);
  return fc.record({
    asyncStore: fc.boolean(),
    steps: fc.array(fc.array(step(settings.maxHandlerMs), { minLength: 1, maxLength: 3 }), {
      minLength: pool.length,
      maxLength: pool.length,
    }),
  });
}

function commands(settings: ScheduleSettings): fc.Arbitrary<Iterable<Command>> {
  const pool = events(settings);
  const process = fc.integer({ min: 0, max: PROCESSES - 1 });
  const send = fc.tuple(fc.integer({ min: 0, max: pool.length - 1 }), process).map(([e, p]) => new Send(e, p));
  const advance = fc.constantFrom(1, 50, 500, 2_000, 6_000, 12_000).map((ms) => new Advance(ms));
  const target = fc.oneof(fc.constant<Target>("all"), process);
  const kind = fc.constantFrom<FaultKind>("fail", "hang", "slow", "lost-reply");
  const fault = fc
    .tuple(target, kind, fc.constantFrom(500, 3_000, 8_000, 30_000))
    .map(([t, k, ms]) => new StoreFault(t, k, ms));
  const kill = process.map((p) => new Kill(p));
  const pause = fc.tuple(process, fc.constantFrom(1_000, 12_000)).map(([p, ms]) => new Pause(p, ms));
  const jump = fc.constantFrom(2_000, 30_000).map((ms) => new JumpClock(ms));
  const arbitraries: fc.Arbitrary<Command>[] = [send, send, send, advance, advance, advance, fault, kill, pause, jump];
  return fc.commands(arbitraries, {
    maxCommands: settings.maxCommands,
    ...(settings.replayPath !== undefined && { replayPath: settings.replayPath }),
  });
}

/** What one schedule is drawn as: fast-check's scheduler, the handlers' behaviour and the commands. */
export function scheduleArbitraries(settings: ScheduleSettings = DEFAULT_SETTINGS) {
  return [fc.scheduler(), worldOptions(settings), commands(settings)] as const;
}

/** Runs one schedule: every command checked as it runs, then retries, leases and timers played out and checked. */
export async function runSchedule(
  settings: ScheduleSettings,
  scheduler: fc.Scheduler,
  options: Omit<WorldOptions, "events" | "processes">,
  schedule: Iterable<Command>,
): Promise<ReceiverWorld> {
  const world = new ReceiverWorld({ ...options, processes: PROCESSES, events: events(settings) }, scheduler);
  const restore = world.clock.install();
  try {
    await fc.asyncModelRun(() => ({ model: {}, real: world }), schedule);
    await world.drain();
    assertClean(world);
    return world;
  } finally {
    restore();
  }
}

/** One schedule of deliveries and faults against Receivers sharing a store, checked after every step and at its end. */
export function receiverProperty(settings: ScheduleSettings = DEFAULT_SETTINGS) {
  return fc.asyncProperty(...scheduleArbitraries(settings), async (scheduler, options, schedule) => {
    await runSchedule(settings, scheduler, options, schedule);
  });
}
