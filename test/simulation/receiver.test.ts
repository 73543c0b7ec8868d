import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { receiverProperty, runSchedule, scheduleArbitraries } from "./receiver-schedule";
import { assertSchedules } from "./report";
import { DEFAULT_SETTINGS } from "./schedule";

// CI's share of the search; `npm run simulate -- --runs N` runs more (README.md).
const RUNS = Number(process.env.SIMULATION_RUNS ?? 8000);
const seed = process.env.SIMULATION_SEED === undefined ? undefined : Number(process.env.SIMULATION_SEED);

describe("the Receiver under seeded schedules of deliveries, retries and faults", () => {
  it(`holds every invariant over ${RUNS} schedules`, { timeout: 300_000 }, async () => {
    const search = { world: "receiver", store: "memory", runs: RUNS } as const;
    await assertSchedules(receiverProperty(DEFAULT_SETTINGS), search, seed);
  });

  it(`holds every invariant over ${RUNS / 4} schedules of a store whose faults throw at once`, {
    timeout: 300_000,
  }, async () => {
    const search = { world: "receiver", store: "memory", runs: RUNS / 4, flags: " --sync-faults" } as const;
    await assertSchedules(receiverProperty({ ...DEFAULT_SETTINGS, syncFaults: true }), search, seed);
  });

  it("plays a schedule the same way every time: a seed replays it", async () => {
    const samples = fc.sample(fc.tuple(...scheduleArbitraries(DEFAULT_SETTINGS)), { numRuns: 40, seed: 36 });
    const again = fc.sample(fc.tuple(...scheduleArbitraries(DEFAULT_SETTINGS)), { numRuns: 40, seed: 36 });
    const play = async ([scheduler, options, commands]: (typeof samples)[number]) => {
      try {
        return (await runSchedule(DEFAULT_SETTINGS, scheduler, options, commands)).model.log.join("\n");
      } catch (error) {
        return String(error);
      }
    };
    for (const [i, sample] of samples.entries()) {
      expect(await play(again[i] as typeof sample)).toBe(await play(sample));
    }
  });
});
