import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runTxSchedule, txProperty, txScheduleArbitrary } from "./transaction-schedule";

// CI's share of the search; `npm run simulate -- --world transactions --runs N` runs more (README.md).
const RUNS = Number(process.env.SIMULATION_STORE_RUNS ?? 60);
const seed = process.env.SIMULATION_SEED === undefined ? undefined : Number(process.env.SIMULATION_SEED);
const db = new PGlite();
afterAll(() => db.close());

describe("transactional handlers on PGlite under seeded schedules of kills and faults between write and commit", () => {
  it(`apply each event's effect at most once, and exactly once once acknowledged, over ${RUNS} schedules`, {
    timeout: 300_000,
  }, async () => {
    await fc.assert(txProperty(db), { numRuns: RUNS, ...(seed !== undefined && { seed }) });
  });

  it("catches the same handlers without transactions: a row committed with no done mark, applied again", {
    timeout: 120_000,
  }, async () => {
    const details = await fc.check(txProperty(db, undefined, false), { numRuns: RUNS, seed: 7 });
    expect(details.failed).toBe(true);
    expect(String(details.errorInstance)).toMatch(/without its done mark|applied 2 times/);
  });

  it("plays a schedule the same way every time: a seed replays it", { timeout: 120_000 }, async () => {
    const samples = fc.sample(txScheduleArbitrary(), { numRuns: 8, seed: 36 });
    const again = fc.sample(txScheduleArbitrary(), { numRuns: 8, seed: 36 });
    const strip = (log: string[]) => log.join("\n");
    for (const [i, sample] of samples.entries()) {
      const first = strip((await runTxSchedule(db, sample)).model.log);
      expect(strip((await runTxSchedule(db, again[i] as typeof sample)).model.log)).toBe(first);
    }
  });
});
