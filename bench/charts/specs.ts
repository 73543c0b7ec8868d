/** Each suite's chart, drawn from the same results its section's tables are written from. */
import { formatBytes } from "../lib/deliveries";
import { count } from "../lib/format";
import type { SuiteName } from "../lib/options";
import type { Summary } from "../lib/stats";
import type { Results } from "../report";
import type { Bar, BarChart } from "./svg";

/** The median, with the min–max as a whisker where the rounds differed. */
const summaryBar = (summary: Summary, label: string): Bar => ({
  value: summary.median,
  ...(summary.max > summary.min ? { range: [summary.min, summary.max] as const } : {}),
  label,
});

const micros = (ns: number) =>
  ns >= 1e7 ? `${(ns / 1e6).toFixed(1)} ms` : `${(ns / 1000).toFixed(ns < 10_000 ? 2 : ns < 100_000 ? 1 : 0)} µs`;

export const CHARTS: Partial<Record<SuiteName, (results: Results) => BarChart | undefined>> = {
  verify: ({ verify }) =>
    verify && {
      title: "Verifying one delivery: time per call against the floor, by body size",
      subtitle:
        "Median over rounds of the ratio measured in the same pass (whisker: min–max of rounds); µs per call after it",
      axis: "× the floor's time per call (floor: bare HMAC-SHA256 and compare, handed the header's parts)",
      series: ["floor", "@tidings/core verify", "Stripe webhooks.signature.verifyHeader"],
      groups: verify.sizes.map(({ size, rows }) => ({
        label: formatBytes(size),
        bars: ["floor", "verify", "stripe"].map((id) => {
          const row = rows.find((candidate) => candidate.id === id);
          return row && summaryBar(row.vsFloor, `${row.vsFloor.median.toFixed(2)}× · ${micros(row.nsPerOp.median)}`);
        }),
      })),
    },
  instructions: ({ instructions }) =>
    instructions && {
      title: "Instructions per request: each adapter against its framework's ideal route",
      subtitle:
        "callgrind, user space, 2 KiB signed deliveries; the quietest window of each route (the ≤ 1.05× target's)",
      axis: "thousand instructions per request",
      series: ["ideal route (hand-written verify, parse, handler)", "@tidings adapter with a Receiver"],
      groups: instructions.frameworks
        .filter((framework) => framework.base && framework.ours && framework.ratio)
        .map(({ adapter, base, ours, ratio }) => ({
          label: adapter,
          bars: [
            { value: (base?.min ?? 0) / 1000, label: count(base?.min ?? 0) },
            { value: (ours?.min ?? 0) / 1000, label: `${count(ours?.min ?? 0)} · ${ratio?.toFixed(3)}×` },
          ],
        })),
    },
  queue: ({ queue }) => {
    const engines = queue?.engines.filter((engine) => engine.endToEnd);
    return (
      queue &&
      engines && {
        title: "Queue hand-off end to end: deliveries per second by worker processes",
        subtitle:
          "Receiver, workers, engine server and load client share the machine; median of rounds, whisker min–max",
        axis: "deliveries per second, from the first request to the last handler run",
        series: engines.map((engine) => engine.label),
        groups: queue.settings.workerProcesses.map((workers) => ({
          label: `${workers} worker process${workers === 1 ? "" : "es"}`,
          bars: engines.map((engine) => {
            const run = engine.endToEnd?.find((candidate) => candidate.workers === workers);
            return run && summaryBar(run.deliveriesPerSecond, run.deliveriesPerSecond.median.toFixed(0));
          }),
        })),
      }
    );
  },
  schemes: ({ schemes }) =>
    schemes && {
      title: "Each sender's scheme: Tidings and the sender's own library against the floor",
      subtitle:
        "Instructions per verification (callgrind, quietest window) ÷ the floor's; the schemes whose sender ships a verifier",
      axis: "× the floor's instructions per verification (floor: bare HMAC or ed25519 and compare)",
      series: ["floor", "Tidings", "the sender's library"],
      groups: schemes.rows
        .filter((row) => row.peer)
        .map((row) => ({
          label: `${row.scheme}, ${formatBytes(row.size)}`,
          bars: [
            { value: 1, label: `1 · ${count(row.floor)}` },
            { value: row.vsFloor, label: `${row.vsFloor.toFixed(2)}× · ${count(row.tidings)}` },
            row.peer && {
              value: row.peer.instructions / row.floor,
              label: `${(row.peer.instructions / row.floor).toFixed(2)}× · ${count(row.peer.instructions)}`,
            },
          ],
        })),
    },
};

/** The chart's file name in the charts folder. */
export const chartFile = (suite: SuiteName) => `${suite}.svg`;

/** The Markdown lines that show a suite's chart, when the report has a charts folder and the suite something to draw. */
export function chartLines(results: Results & { charts?: string | undefined }, suite: SuiteName): string[] {
  const chart = results.charts === undefined ? undefined : CHARTS[suite]?.(results);
  if (!chart || chart.groups.length === 0) return [];
  return [`![${chart.title}](${results.charts}/${chartFile(suite)})`, ""];
}
