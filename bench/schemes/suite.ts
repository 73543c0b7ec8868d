import { Bench } from "tinybench";
import { median } from "../lib/stats";
import { buildSchemeCases } from "./cases";

export const SCHEME_SIZES = [256, 4096, 1024 * 1024] as const;

export interface SchemeRow {
  scheme: string;
  size: number;
  /** Nanoseconds per verification: Tidings, the floor, the sender's library. */
  tidingsNs: number;
  floorNs: number;
  peer?: { name: string; ns: number };
  /** Tidings ÷ floor, median over passes (each pass times both back to back). */
  vsFloor: number;
  /** The sender's library ÷ Tidings: above 1, Tidings is faster. */
  peerVsTidings?: number;
}

async function timeOnce(tasks: Record<string, () => unknown>, timeMs: number): Promise<Map<string, number>> {
  const bench = new Bench({ time: timeMs, warmupTime: timeMs / 4, iterations: 8, warmupIterations: 2, throws: true });
  for (const [name, run] of Object.entries(tasks)) bench.add(name, run);
  await bench.run();
  return new Map(
    Object.keys(tasks).map((name) => {
      const result = bench.getTask(name)?.result;
      if (result?.state !== "completed") throw new Error(`schemes ${name}: ${result?.state ?? "missing"}`);
      return [name, result.latency.p50 * 1e6] as const;
    }),
  );
}

/** Every scheme at 256 B, 4 KiB and 1 MiB: Tidings ÷ the floor, and the sender's own verifier beside it. */
export async function runSchemesSuite(options: { quick: boolean; passes?: number }, log: (line: string) => void) {
  const rows: SchemeRow[] = [];
  const passes = options.quick ? 1 : (options.passes ?? 7);
  const sizes = options.quick ? [256] : SCHEME_SIZES;
  for (const size of sizes) {
    const timeMs = options.quick ? 20 : size > 100_000 ? 400 : 150;
    for (const testCase of buildSchemeCases(size)) {
      const samples: { tidings: number; floor: number; peer: number | undefined }[] = [];
      for (let pass = 0; pass < passes; pass++) {
        const tasks: Record<string, () => unknown> = { tidings: testCase.tidings, floor: testCase.floor };
        if (testCase.peer) tasks.peer = testCase.peer.run;
        const ns = await timeOnce(tasks, timeMs);
        samples.push({ tidings: ns.get("tidings") as number, floor: ns.get("floor") as number, peer: ns.get("peer") });
      }
      const tidingsNs = median(samples.map((sample) => sample.tidings));
      const row: SchemeRow = {
        scheme: testCase.scheme,
        size,
        tidingsNs,
        floorNs: median(samples.map((sample) => sample.floor)),
        vsFloor: median(samples.map((sample) => sample.tidings / sample.floor)),
      };
      if (testCase.peer) {
        const peerNs = median(samples.map((sample) => sample.peer as number));
        row.peer = { name: testCase.peer.name, ns: peerNs };
        row.peerVsTidings = median(samples.map((sample) => (sample.peer as number) / sample.tidings));
      }
      rows.push(row);
      log(
        `schemes ${testCase.scheme} ${size} B: tidings/floor ${row.vsFloor.toFixed(3)}${row.peerVsTidings ? `, ${row.peer?.name}/tidings ${row.peerVsTidings.toFixed(2)}` : ""}`,
      );
    }
  }
  return { rows };
}

const sizeLabel = (size: number) =>
  size >= 1024 * 1024 ? `${size / 1024 / 1024} MiB` : size >= 1024 ? `${size / 1024} KiB` : `${size} B`;

/** The report's table: each scheme and size, with its ratios and whether each target is met. */
export function renderSchemes({ rows }: { rows: SchemeRow[] }): string {
  const lines = [
    "| scheme | size | Tidings | floor | Tidings ÷ floor (≤ 1.10) | sender's library | library ÷ Tidings (> 1) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  const us = (ns: number) => `${(ns / 1000).toFixed(ns < 10_000 ? 2 : 0)} µs`;
  for (const row of rows) {
    const met = row.vsFloor <= 1.1 ? "" : " ✗";
    const peer = row.peer ? `${row.peer.name} ${us(row.peer.ns)}` : "none";
    const faster =
      row.peerVsTidings === undefined ? "" : `${row.peerVsTidings.toFixed(2)}×${row.peerVsTidings > 1 ? "" : " ✗"}`;
    lines.push(
      `| ${row.scheme} | ${sizeLabel(row.size)} | ${us(row.tidingsNs)} | ${us(row.floorNs)} | ${row.vsFloor.toFixed(3)}${met} | ${peer} | ${faster} |`,
    );
  }
  return lines.join("\n");
}
