import { STORE_LABELS } from "./routes";
import type { OrderResults } from "./suite";

const count = (value: number) => Math.round(value).toLocaleString("en-US");

/** The order suite's section of the report. */
export function renderOrder({ settings, costs }: OrderResults): string {
  const rows = costs.map(
    ({ store, plain, ordered, ratio, medianRatio }) =>
      `| ${STORE_LABELS[store]} | ${count(plain.min)} | ${count(ordered.min)} | **${ratio.toFixed(3)}** | ${medianRatio.toFixed(3)} |`,
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
