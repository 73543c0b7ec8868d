import { describe, expect, it } from "vitest";
import { parseOptions } from "../../bench/lib/options";
import { summarize } from "../../bench/lib/stats";
import type { BatchingResult, RouteLoad } from "../../bench/queue/batched";
import type { EngineResult, QueueResults } from "../../bench/queue/suite";
import { type RunReport, renderReport } from "../../bench/report";
import { mergeReport } from "../../bench/report-merge";

const options = parseOptions(["--only=queue"], "BENCHMARKS.md", [], ["bullmq", "pg-boss"]);

const route = (cpu: number[]): RouteLoad => ({
  answeredPerSecond: summarize([2000, 2100, 2200]),
  latencyP99Ms: summarize([30, 31, 40]),
  cpuMicrosPerDelivery: summarize(cpu),
});
const ratios = (perRound: number[]) => ({ ...summarize(perRound), perRound });

/** Group commit over three rounds: CPU µs per delivery per route, round by round. */
function batching(batched: number[], oneAdd: number[], unbatched: number[]): BatchingResult {
  const within = (baseline: number[]) => ratios(batched.map((cpu, round) => (baseline[round] as number) / cpu));
  return {
    connections: 32,
    rounds: batched.length,
    deliveries: 4000,
    warmupDeliveries: 6000,
    routes: { batched: route(batched), oneAddPerRequest: route(oneAdd), unbatched: route(unbatched) },
    against: {
      oneAddPerRequest: { answered: ratios([1, 1, 1]), cpu: within(oneAdd) },
      unbatched: { answered: ratios([1, 1, 1]), cpu: within(unbatched) },
    },
  };
}

const bullmq = (result: BatchingResult): EngineResult => ({
  id: "bullmq",
  label: "BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2",
  batching: result,
});

function render(engines: EngineResult[]): string {
  const queue: QueueResults = { settings: options.queue, engines };
  const report: RunReport = {
    machine: {
      cpu: "test",
      cores: 2,
      memoryGiB: 8,
      node: "v20",
      os: "Linux",
      date: "2026-01-01T00:00:00.000Z",
      loadAverage: "1",
    },
    loadAtEnd: "1",
    pinning: "none",
    options,
    command: "node --import tsx/esm run.ts --only=queue",
    seconds: { queue: 1, total: 1 },
    errors: [],
    queue,
  };
  return renderReport(report);
}

const targetRow = (markdown: string) =>
  markdown.split("\n").find((line) => line.startsWith("| BullMQ 6.7.0: deliveries per CPU-second"));

describe("the queue section's group commit", () => {
  // Batched costs 100, 110 and 90 µs; unbatched 90, 99 and 99: ratios 0.90, 0.90 and 1.10.
  const straddling = bullmq(batching([100, 110, 90], [80, 82, 78], [90, 99, 99]));

  it("shows each route's CPU per delivery with its spread, each ratio's min–max, the target and its status", () => {
    const markdown = render([straddling]);
    expect(markdown).toContain(
      "| BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2 | 100 (90–110) | 80 (78–82) | 99 (90–99) | " +
        "0.80× (0.75–0.87; per round 0.80, 0.75, 0.87) | 0.90× (0.90–1.10; per round 0.90, 0.90, 1.10) | " +
        "batched enqueueTo ÷ the unbatched enqueueTo ≥ 0.95× | " +
        "undecided: the rounds fall on both sides of the target |",
    );
    expect(markdown).toContain("6,000 warm-up deliveries per route");
    expect(markdown).toContain("then 3 round(s)");
  });

  it("is missed only when every round is below the target", () => {
    const below = render([bullmq(batching([100, 110, 120], [80, 82, 78], [90, 99, 108]))]);
    expect(targetRow(below)).toMatch(/every round below the target \| \*\*missed\*\* \|$/);
  });

  it("replaces an earlier verdict when a folded run leaves it undecided", () => {
    const earlier = render([bullmq(batching([90, 90, 90], [80, 82, 78], [99, 99, 99]))]);
    expect(targetRow(earlier)).toMatch(/\| met \|$/);
    const suites = { names: ["queue"], keys: ["## 5."] };
    const merged = mergeReport(earlier, render([straddling]), suites, "| queue: measured in a run of its own | now |");
    expect(targetRow(merged)).toMatch(/both sides of the target \| undecided \|$/);
  });
});
