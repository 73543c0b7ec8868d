import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VirtualClock } from "./clock";
import { receiverProperty, runSchedule, scheduleArbitraries } from "./receiver-schedule";
import { assertSchedules } from "./report";
import { DEFAULT_SETTINGS } from "./schedule";
import { pgliteStores, redisStores, type StoreFactory } from "./stores";
import { runWorkerSchedule, workerProperty, workerScheduleArbitraries } from "./worker-schedule";
import { START } from "./world";

// Tens of schedules per store and world: a real store costs a round trip per call (README.md, "Real stores").
const RUNS = Number(process.env.SIMULATION_STORE_RUNS ?? 60);
const seed = process.env.SIMULATION_SEED === undefined ? undefined : Number(process.env.SIMULATION_SEED);
const settings = DEFAULT_SETTINGS;

const STORES = [
  ["PostgresStore on PGlite", pgliteStores],
  ["RedisStore on redis-server", redisStores],
] as const;

for (const [name, open] of STORES) {
  describe(`the Receiver and queue workers on ${name}, seeded schedules`, () => {
    let stores: StoreFactory;
    beforeAll(async () => {
      stores = await open();
    });
    afterAll(async () => {
      await stores?.close();
    });

    it("keeps the run's time: a lease runs out exactly when virtual time says", async () => {
      const clock = new VirtualClock(START);
      const backing = await stores.open(clock, undefined);
      const restore = clock.install();
      try {
        const answer = async <T>(call: T | Promise<T>): Promise<T> => {
          while (backing.gate && backing.gate.waiting > 0) await backing.gate.releaseOne();
          return call;
        };
        const claim = () => answer(backing.store.claim("event:lease", 10_000));
        expect((await claim()).state).toBe("claimed");
        await clock.advance(9_999, async () => {}, backing.passTime);
        expect((await claim()).state).toBe("in-flight");
        await clock.advance(1, async () => {}, backing.passTime);
        expect((await claim()).state).toBe("claimed");
      } finally {
        restore();
      }
    });

    it(`Receivers hold every invariant over ${RUNS} schedules`, { timeout: 300_000 }, async () => {
      const search = { world: "receiver", store: stores.kind, runs: RUNS } as const;
      await assertSchedules(receiverProperty(settings, stores), search, seed);
    });

    it(`workers hold every invariant over ${RUNS} schedules`, { timeout: 300_000 }, async () => {
      const search = { world: "worker", store: stores.kind, runs: RUNS } as const;
      await assertSchedules(workerProperty(settings, stores), search, seed);
    });

    it("plays a schedule the same way every time: a seed replays it", { timeout: 300_000 }, async () => {
      const receivers = () => fc.sample(fc.tuple(...scheduleArbitraries(settings, stores)), { numRuns: 5, seed: 36 });
      const workers = () =>
        fc.sample(fc.tuple(...workerScheduleArbitraries(settings, stores)), { numRuns: 5, seed: 36 });
      const logOf = async (run: () => Promise<{ model: { log: string[] } }>) => {
        try {
          return (await run()).model.log.join("\n");
        } catch (error) {
          return String(error);
        }
      };
      const [r1, r2, w1, w2] = [receivers(), receivers(), workers(), workers()];
      for (const [i, [scheduler, options, commands]] of r1.entries()) {
        const [s2, o2, c2] = r2[i] as (typeof r1)[number];
        const first = await logOf(() => runSchedule(settings, scheduler, options, commands, stores));
        expect(await logOf(() => runSchedule(settings, s2, o2, c2, stores))).toBe(first);
      }
      for (const [i, [scheduler, options, commands]] of w1.entries()) {
        const [s2, o2, c2] = w2[i] as (typeof w1)[number];
        const first = await logOf(() => runWorkerSchedule(settings, scheduler, options, commands, stores));
        expect(await logOf(() => runWorkerSchedule(settings, s2, o2, c2, stores))).toBe(first);
      }
    });
  });
}
