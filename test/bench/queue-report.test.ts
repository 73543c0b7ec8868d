import { describe, expect, it } from "vitest";
import { parseOptions } from "../../bench/lib/options";
import { summarize } from "../../bench/lib/stats";
import type { BatchingResult, RouteLoad } from "../../bench/queue/batched";
import { type BatchingCount, windowRatios } from "../../bench/queue/batched-instructions";
import type { EngineResult, QueueResults } from "../../bench/queue/suite";
import { type RunReport, renderReport } from "../../bench/report";
import { mergeReport } from "../../bench/report-merge";

const options = parseOptions(["--only=queue"], "BENCHMARKS.md", [], ["bullmq", "pg-boss"]);

const route = (cpu: number[]): RouteLoad => ({
  answeredPerSecond: summarize([2000, 2100, 2200]),
  latencyP99Ms: summarize([30, 31, 40]),
  cpuMicrosPerDelivery: summarize(cpu),
  jobsPerWrite: summarize([1, 1, 1]),
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

/** Group commit under callgrind: instructions per delivery per route, window by window; batches of 12.5 jobs. */
function counting(batched: number[], oneAdd: number[], unbatched: number[]): BatchingCount {
  const counted = (instructions: number[], jobsPerWrite: number) => ({
    instructions: summarize(instructions),
    jobsPerWrite: summarize(instructions.map(() => jobsPerWrite)),
  });
  return {
    connections: 32,
    settings: { warmupRequests: 6000, windows: batched.length, windowRequests: 500 },
    routes: { batched: counted(batched, 12.5), oneAddPerRequest: counted(oneAdd, 1), unbatched: counted(unbatched, 1) },
    against: { oneAddPerRequest: windowRatios(batched, oneAdd), unbatched: windowRatios(batched, unbatched) },
  };
}

const timed = batching([100, 110, 90], [80, 82, 78], [90, 99, 99]);

const bullmq = (count: BatchingCount, result: BatchingResult = timed): EngineResult => ({
  id: "bullmq",
  label: "BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2",
  batching: result,
  batchingCount: count,
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
  markdown.split("\n").find((line) => line.startsWith("| BullMQ 6.7.0: deliveries per instruction"));

describe("the queue section's group commit", () => {
  // Batched costs 600k, 700k and 580k instructions per delivery; unbatched 570k, 560k and 580k: per window 0.95, 0.80
  // and 1.00, minima 560/580 = 0.966, medians 570/600 = 0.95.
  const atTarget = bullmq(counting([600e3, 700e3, 580e3], [500e3, 510e3, 505e3], [570e3, 560e3, 580e3]));

  it("judges by instructions: each route's count, jobs per write, the ratios, the target and its status", () => {
    const markdown = render([atTarget]);
    expect(markdown).toContain(
      "| BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2 | 600.0 (580.0–700.0) | 505.0 (500.0–510.0) | 570.0 (560.0–580.0) | " +
        "12.5 (12.5–12.5) / 1.0 (1.0–1.0) | 0.862× (minima; medians 0.842×; windows 0.729–0.871) | " +
        "0.966× (minima; medians 0.950×; windows 0.800–1.000) | " +
        "batched enqueueTo ÷ the unbatched enqueueTo ≥ 0.95× | " +
        "met: minima 0.9655 and medians 0.9500 at or above |",
    );
    expect(markdown).toContain("6,000 warm-up deliveries per route");
    expect(markdown).toContain("one window of 500 deliveries each, 3 time(s)");
    expect(markdown).toContain("what they do not see is the waiting");
  });

  it("is met despite one window with a full collection, and missed only when minima and medians are below", () => {
    expect(targetRow(render([atTarget]))).toMatch(/\| met \|$/);
    const below = render([bullmq(counting([620e3, 630e3, 640e3], [500e3, 510e3, 505e3], [570e3, 580e3, 900e3]))]);
    expect(targetRow(below)).toMatch(/minima 0\.9194 and medians 0\.9206 below \| \*\*missed\*\* \|$/);
    const between = render([bullmq(counting([560e3, 600e3, 640e3], [500e3, 510e3, 505e3], [550e3, 560e3, 570e3]))]);
    expect(targetRow(between)).toMatch(
      /minima 0\.9821 and medians 0\.9333 on either side of the target \| undecided \|$/,
    );
  });

  it("reports the timed rounds' CPU per delivery and ratios without a target", () => {
    const markdown = render([atTarget]);
    expect(markdown).toContain(
      "| BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2 | 100 (90–110) | 80 (78–82) | 99 (90–99) | 1.0 (1.0–1.0) / 1.0 (1.0–1.0) | " +
        "0.80× (0.75–0.87; per round 0.80, 0.75, 0.87) | 0.90× (0.90–1.10; per round 0.90, 0.90, 1.10) |\n",
    );
    expect(markdown).toContain("then 3 round(s) in which each route takes 4,000 deliveries");
  });

  it("replaces an earlier verdict when a folded run leaves it undecided", () => {
    const earlier = render([atTarget]);
    const later = render([bullmq(counting([560e3, 600e3, 640e3], [500e3, 510e3, 505e3], [550e3, 560e3, 570e3]))]);
    const suites = { names: ["queue"], keys: ["## 5."] };
    const merged = mergeReport(earlier, later, suites, "| queue: measured in a run of its own | now |");
    expect(targetRow(merged)).toMatch(
      /minima 0\.9821 and medians 0\.9333 on either side of the target \| undecided \|$/,
    );
  });
});
