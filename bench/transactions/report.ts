import { thousands } from "../lib/format";
import type { TransactionResults } from "./suite";

/** The transactions suite's section of the report. */
export function renderTransactions({ settings, request, worker }: TransactionResults): string {
  const row = (what: string, { label, base, ours, ratio, medianRatio }: TransactionResults["request"]) =>
    `| ${what} | ${label} | ${thousands(base.min)} | ${thousands(ours.min)} | **${ratio.toFixed(3)}** | ${medianRatio.toFixed(3)} |`;
  return [
    "## Transactions: what a transactional handler costs",
    "",
    `Instructions per delivery (callgrind, user space, the measured process only; PostgreSQL 15 on loopback, not counted) of a handler that writes one row through \`ctx.transaction\`, with \`PostgresStore\` and \`transactions: pgTransactions(pool)\`, against the same work by hand: a client of the same pool, \`BEGIN\`, insert the delivery's dedup row (\`on conflict do nothing\`; none inserted: done), insert the same row, \`COMMIT\`. **Request**: core's Node request handler and a Receiver against a node:http route that reads the body, verifies inline with node:crypto and parses. **pg-boss worker**: \`createWorker\` against \`boss.work\` with the options \`createWorker\` passes (concurrency 8), in one process, jobs added through \`enqueueTo\` by a producer not counted. The Receiver's claim is the transaction's first statement and is its done mark, as the hand-written dedup row is; the worker (no \`order\`) writes its inbox row in the transaction, as the hand-written handler does its dedup row. Every delivery is a new event. ${settings.windows} windows of ${settings.windowRequests} per side after ${settings.warmupRequests} warm-up, the sides taking turns. Target: ≤ 1.10.`,
    "",
    "| where | setup | by hand, instr/delivery | ours, instr/delivery | ours ÷ by hand (minima) | (medians) |",
    "| --- | --- | --- | --- | --- | --- |",
    row("request", request),
    row("pg-boss worker", worker),
    "",
  ].join("\n");
}
