import { thousands } from "../lib/format";
import { STORE_LABELS } from "./routes";
import type { OrderResults } from "./suite";

/** The order suite's section of the report. */
export function renderOrder({ settings, costs }: OrderResults): string {
  const rows = costs.map(
    ({ store, base, ours, ratio, medianRatio }) =>
      `| ${STORE_LABELS[store]} | ${thousands(base.min)} | ${thousands(ours.min)} | **${ratio.toFixed(3)}** | ${medianRatio.toFixed(3)} |`,
  );
  return [
    "## Order: what `order` costs",
    "",
    `Instructions per request (callgrind, user space, the receiver's process only) of one Express route with \`order: messageStatusOrder\` and the same route without it, per store; each request a new event of a new message. ${settings.windows} windows of ${settings.windowRequests} requests per route after ${settings.warmupRequests} warm-up requests, the routes taking turns. Target: ≤ 1.10 on MemoryStore.`,
    "",
    "| store | without order | with order | with ÷ without (minima) | (medians) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
