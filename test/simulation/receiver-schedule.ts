import fc from "fast-check";
import { ReceiverWorld } from "./receiver-world";
import {
  type Command,
  commandsOf,
  DEFAULT_SETTINGS,
  type DrawnOptions,
  events,
  fullOptions,
  runWorld,
  type ScheduleSettings,
  Step,
  sharedCommands,
  worldOptions,
} from "./schedule";
import { memoryStores, type StoreFactory } from "./stores";

type World = ReceiverWorld;

class Send extends Step<World> {
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

class SwitchOrder extends Step<World> {
  constructor(readonly process: number) {
    super();
  }
  protected act(world: World): void {
    world.switchOrder(this.process);
  }
  toString(): string {
    return `switchOrder(p${this.process})`;
  }
}

const PROCESSES = 2;

function commands(settings: ScheduleSettings): fc.Arbitrary<Iterable<Command<World>>> {
  const pool = events(settings);
  const { process, advance, fault, kill, pause, jump } = sharedCommands(PROCESSES);
  const send = fc.tuple(fc.integer({ min: 0, max: pool.length - 1 }), process).map(([e, p]) => new Send(e, p));
  const switchOrder = process.map((p) => new SwitchOrder(p));
  const arbitraries: fc.Arbitrary<Command<World>>[] = [
    send,
    send,
    send,
    advance,
    advance,
    advance,
    fault,
    kill,
    pause,
    jump,
    switchOrder,
  ];
  return commandsOf(arbitraries, settings);
}

/** What one schedule is drawn as: fast-check's scheduler, the handlers' behaviour and the commands. */
export function scheduleArbitraries(
  settings: ScheduleSettings = DEFAULT_SETTINGS,
  stores: StoreFactory = memoryStores,
) {
  return [fc.scheduler(), worldOptions(settings, stores.kind), commands(settings)] as const;
}

/** Runs one schedule: every command checked as it runs, then retries, leases and timers played out and checked. */
export function runSchedule(
  settings: ScheduleSettings,
  scheduler: fc.Scheduler,
  options: DrawnOptions,
  schedule: Iterable<Command<World>>,
  stores: StoreFactory = memoryStores,
): Promise<ReceiverWorld> {
  const full = fullOptions(settings, options, PROCESSES);
  return runWorld(
    stores,
    options.maxEntries,
    (clock, backing) => new ReceiverWorld(full, scheduler, clock, backing),
    schedule,
  );
}

/** One schedule of deliveries and faults against Receivers sharing a store, checked after every step and at its end. */
export function receiverProperty(settings: ScheduleSettings = DEFAULT_SETTINGS, stores: StoreFactory = memoryStores) {
  return fc.asyncProperty(...scheduleArbitraries(settings, stores), async (scheduler, options, schedule) => {
    await runSchedule(settings, scheduler, options, schedule, stores);
  });
}
