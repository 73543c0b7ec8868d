import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertSchedules } from "./report";
import { DEFAULT_SETTINGS } from "./schedule";
import { runWorkerSchedule, workerProperty, workerScheduleArbitraries } from "./worker-schedule";

// CI's share of the search; `npm run simulate -- --world worker --runs N` runs more (README.md).
const RUNS = Number(process.env.SIMULATION_RUNS ?? 8000);
const seed = process.env.SIMULATION_SEED === undefined ? undefined : Number(process.env.SIMULATION_SEED);

describe("queue workers with order under an at-least-once engine, seeded schedules of jobs and faults", () => {
  it(`holds every invariant over ${RUNS} schedules`, { timeout: 300_000 }, async () => {
    const search = { world: "worker", store: "memory", runs: RUNS } as const;
    await assertSchedules(workerProperty(DEFAULT_SETTINGS), search, seed);
  });

  it("plays a schedule the same way every time: a seed replays it", async () => {
    const draw = () => fc.sample(fc.tuple(...workerScheduleArbitraries(DEFAULT_SETTINGS)), { numRuns: 40, seed: 36 });
    const [samples, again] = [draw(), draw()];
    const play = async ([scheduler, options, commands]: (typeof samples)[number]) => {
      try {
        return (await runWorkerSchedule(DEFAULT_SETTINGS, scheduler, options, commands)).model.log.join("\n");
      } catch (error) {
        return String(error);
      }
    };
    for (const [i, sample] of samples.entries()) {
      expect(await play(again[i] as typeof sample)).toBe(await play(sample));
    }
  });
});
