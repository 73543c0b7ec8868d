import fc from "fast-check";
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
import { type EngineOptions, WorkerWorld } from "./worker-world";

type World = WorkerWorld;

class Enqueue extends Step<World> {
  constructor(readonly event: number) {
    super();
  }
  protected act(world: World): void {
    world.enqueue(this.event);
  }
  toString(): string {
    return `enqueue(e${this.event})`;
  }
}

const PROCESSES = 3;

function commands(settings: ScheduleSettings): fc.Arbitrary<Iterable<Command<World>>> {
  const pool = events(settings);
  const { advance, fault, kill, pause, jump } = sharedCommands(PROCESSES);
  const enqueue = fc.integer({ min: 0, max: pool.length - 1 }).map((e) => new Enqueue(e));
  const arbitraries: fc.Arbitrary<Command<World>>[] = [
    enqueue,
    enqueue,
    enqueue,
    advance,
    advance,
    advance,
    fault,
    kill,
    pause,
    jump,
  ];
  return commandsOf(arbitraries, settings);
}

/** How the engine is configured: from a short expiry that takes running jobs back to pg-boss's 15 minutes. */
const engineOptions: fc.Arbitrary<EngineOptions> = fc.record({
  concurrency: fc.constantFrom(1, 2),
  expireMs: fc.constantFrom(20_000, 60_000, 900_000),
  stallMs: fc.constantFrom(5_000, 30_000),
  removeOnComplete: fc.boolean(),
});

type Options = DrawnOptions & EngineOptions;

/** What one schedule is drawn as: fast-check's scheduler, the handlers' and the engine's behaviour and the commands. */
export function workerScheduleArbitraries(
  settings: ScheduleSettings = DEFAULT_SETTINGS,
  stores: StoreFactory = memoryStores,
) {
  const options: fc.Arbitrary<Options> = fc
    .tuple(worldOptions(settings, stores.kind), engineOptions)
    .map(([world, engine]) => ({ ...world, ...engine }));
  return [fc.scheduler(), options, commands(settings)] as const;
}

/** Runs one schedule: every command checked as it runs, then runs, retries and leases played out and checked. */
export function runWorkerSchedule(
  settings: ScheduleSettings,
  scheduler: fc.Scheduler,
  options: Options,
  schedule: Iterable<Command<World>>,
  stores: StoreFactory = memoryStores,
): Promise<WorkerWorld> {
  const full = fullOptions(settings, options, PROCESSES);
  return runWorld(
    stores,
    options.maxEntries,
    (clock, backing) => new WorkerWorld(full, scheduler, clock, backing),
    schedule,
  );
}

/** One schedule of jobs and faults against QueueWorkers with `order` fed by an at-least-once engine. */
export function workerProperty(settings: ScheduleSettings = DEFAULT_SETTINGS, stores: StoreFactory = memoryStores) {
  return fc.asyncProperty(...workerScheduleArbitraries(settings, stores), async (scheduler, options, schedule) => {
    await runWorkerSchedule(settings, scheduler, options, schedule, stores);
  });
}
