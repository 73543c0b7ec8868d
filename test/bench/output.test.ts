import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOptions } from "../../bench/lib/options";
import { summarize } from "../../bench/lib/stats";
import { writeSuiteFiles } from "../../bench/output";
import type { QueueResults } from "../../bench/queue/suite";

const ROOT = join(import.meta.dirname, "..", "..");
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

/** What the repository's formatter makes of `text` as a file of bench-charts/. */
const formatted = (text: string) =>
  execFileSync(BIOME, ["format", "--stdin-file-path=bench-charts/queue.json"], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  });

const rounds = (count: number) => Array.from({ length: count }, (_, round) => 0.8 + round / 97 + 1e-13);
const ratios = (count: number) => ({ ...summarize(rounds(count)), perRound: rounds(count) });
const load = summarize([2000, 2100, 2200]);

/** A queue run's results holding per-round ratios over nine rounds, longer than a line, and over three. */
const results: QueueResults = {
  settings: parseOptions([], "", [], ["bullmq"]).queue,
  engines: [
    {
      id: "bullmq",
      label: "BullMQ 6.7.0, Redis 7.0.15, Node 20.20.2",
      batching: {
        connections: 32,
        rounds: 9,
        deliveries: 4000,
        warmupDeliveries: 6000,
        routes: {
          batched: { answeredPerSecond: load, latencyP99Ms: load, cpuMicrosPerDelivery: load },
          oneAddPerRequest: { answeredPerSecond: load, latencyP99Ms: load, cpuMicrosPerDelivery: load },
          unbatched: { answeredPerSecond: load, latencyP99Ms: load, cpuMicrosPerDelivery: load },
        },
        against: {
          oneAddPerRequest: { answered: ratios(3), cpu: ratios(9) },
          unbatched: { answered: ratios(9), cpu: ratios(9) },
        },
      },
      endToEnd: [{ workers: 1, deliveriesPerSecond: load, answeredPerSecond: load, latencyP99Ms: load }],
    },
  ],
};

describe("a suite's results file", () => {
  const dir = mkdtempSync(join(tmpdir(), "tidings-bench-output-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is written as the repository's formatter writes it, long arrays of numbers included", () => {
    writeSuiteFiles(dir, { queue: results }, ["queue"]);
    const written = readFileSync(join(dir, "queue.json"), "utf8");
    expect(written).toContain(`"perRound": [\n`);
    expect(formatted(written)).toBe(written);
  });
});
