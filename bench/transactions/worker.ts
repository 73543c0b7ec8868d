/**
 * The worker side of the transactions suite (pg-boss): argv concurrency, the `bare` queue, the `ours` queue; env
 * POSTGRES_URL. Two workers in this process, each on its queue, with the same pg-boss options:
 *   bare  `boss.work` whose handler is `writeOnceByHand` for each job (BEGIN, inbox row, app row, COMMIT)
 *   ours  `createWorker` with `PostgresStore` and `transactions: pgTransactions(pool)`, whose handler writes the same
 *         app row through `ctx.transaction` (the worker writes the inbox row in the same transaction)
 */

import { createWorker } from "@tidings/pg-boss";
import { PostgresStore, pgTransactions } from "@tidings/postgres";
import pg from "pg";
import { type Job, PgBoss } from "pg-boss";
import { serveCommands } from "../lib/children";
import { type ParsedEvent, writeOnceByHand } from "./by-hand";
import { createTables, insertRow } from "./schema";
import { WORKER_SIDES, type WorkerSide } from "./sides";

/** As the queue suite's workers: pg-boss's least polling interval when a fetch comes back short. */
const POLLING_INTERVAL_SECONDS = 0.5;
const [concurrency = "8", bareQueue = "", oursQueue = ""] = process.argv.slice(2);
const url = process.env.POSTGRES_URL as string;
const pool = new pg.Pool({ connectionString: url, max: 2 * Number(concurrency) });
// No maintenance or cron: their periodic queries would land in random counting windows.
const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false });
boss.on("error", (error) => console.error("[bench] pg-boss:", error));
await boss.start();
for (const side of WORKER_SIDES) await createTables(pool, `worker_${side}`);

const handled = Object.fromEntries(WORKER_SIDES.map((side) => [side, 0])) as Record<WorkerSide, number>;
const waiting = new Map<WorkerSide, { count: number; resolve(): void }>();
function count(side: WorkerSide): void {
  handled[side]++;
  const wait = waiting.get(side);
  if (wait && handled[side] >= wait.count) wait.resolve();
}

const store = new PostgresStore({ client: pool, table: "tx_store_worker" });
await store.setup();
const ours = createWorker({
  boss,
  queue: oursQueue,
  concurrency: Number(concurrency),
  store,
  transactions: pgTransactions(pool),
  pgBoss: { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS },
});
ours.onAny(async (event, ctx) => {
  const { id, data } = event as ParsedEvent;
  await ctx.transaction.query(insertRow("worker_ours"), [id, data.status]);
  count("ours");
});
await ours.ready;

// The options createWorker passes, and per-job results as it returns them.
const options = {
  batchSize: Number(concurrency),
  perJobResults: true,
  burstWhenBatchFull: true,
  pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
} as const;
await boss.createQueue(bareQueue);
await boss.work<{ event: ParsedEvent }, unknown, typeof options>(
  bareQueue,
  options,
  (jobs: Job<{ event: ParsedEvent }>[]) =>
    Promise.all(
      jobs.map(async (job) => {
        if (await writeOnceByHand(pool, "worker_bare", job.data.event)) count("bare");
        return { id: job.id, status: "completed" as const };
      }),
    ),
);

serveCommands({
  /** Resolves once `count` jobs of the side have run in all. */
  until: ({ side, count: target }: { side: WorkerSide; count: number }) => {
    if (handled[side] >= target) return handled[side];
    return new Promise<number>((resolve) => {
      waiting.set(side, {
        count: target,
        resolve: () => {
          waiting.delete(side);
          resolve(handled[side]);
        },
      });
    });
  },
});
