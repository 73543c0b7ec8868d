/**
 * What a transactional handler costs: instructions per delivery (callgrind, user space, the measured process only)
 * of our Receiver / pg-boss worker with `transactions: pgTransactions(pool)` and `PostgresStore`, whose handler writes
 * one row through `ctx.transaction`, against a hand-written route / `boss.work` handler that opens the same kind of
 * transaction on the same pool, inserts a dedup row and writes the same row (by-hand.ts). Real PostgreSQL on
 * loopback; its server's work is not counted.
 */
import { PostgresServer, postgresVersion } from "../../test/support/postgres-server";
import { SERVER_CPU } from "../http/fleet";
import { ROUTES } from "../http/routes";
import { CallgrindChild } from "../instructions/callgrind-child";
import { countRoutes } from "../instructions/measure";
import { type Counted, countInTurns } from "../instructions/turns";
import { Child } from "../lib/children";
import type { InstructionSettings } from "../lib/options";
import { type Pair, pairOf } from "../lib/stats";
import { ENGINES } from "../queue/engines";
import { REQUEST_SIDES, type RequestSide, WORKER_SIDES, type WorkerSide } from "./sides";

export interface TransactionCost extends Pair {
  /** What was measured, for the report's row. */
  label: string;
}

export interface TransactionResults {
  settings: InstructionSettings;
  request: TransactionCost;
  worker: TransactionCost;
}

const BODY_BYTES = 2048;
const CONCURRENCY = 8;

export async function runTransactionsSuite(
  settings: InstructionSettings,
  log: (line: string) => void,
): Promise<TransactionResults> {
  const postgres = await PostgresServer.start();
  try {
    const request = await measureRequest(postgres.url, settings);
    log(`transactions request: ours ÷ by hand ${request.ratio.toFixed(3)} (minima), ${request.medianRatio.toFixed(3)}`);
    const worker = await measureWorker(postgres.url, settings);
    log(`transactions pg-boss: ours ÷ by hand ${worker.ratio.toFixed(3)} (minima), ${worker.medianRatio.toFixed(3)}`);
    return { settings, request, worker };
  } finally {
    await postgres.remove();
  }
}

async function measureRequest(url: string, settings: InstructionSettings): Promise<TransactionCost> {
  const { windows } = await countRequest(url, settings);
  return {
    label: `Receiver (node:http), PostgreSQL ${postgresVersion()}, Node ${process.versions.node}`,
    ...pairOf(windows.get("ideal") ?? [], windows.get("adapter") ?? []),
  };
}

/** The request sides' counts; with `functions`, by function too (main.ts --functions). */
export async function countRequest(
  url: string,
  settings: InstructionSettings,
  functions = false,
): Promise<Counted<RequestSide>> {
  const server = new CallgrindChild("transactions/request-server.ts", { cpu: SERVER_CPU, args: [url] }, { functions });
  try {
    return await countRoutes(server, REQUEST_SIDES, (side) => ROUTES[side], settings, functions);
  } finally {
    await server.stop();
  }
}

/** The producer (not counted) fills a side's queue through enqueueTo; its window ends when that side ran them all. */
async function measureWorker(url: string, settings: InstructionSettings): Promise<TransactionCost> {
  const { windows } = await countWorker(url, settings);
  return { label: pgBoss().label(), ...pairOf(windows.get("bare") ?? [], windows.get("ours") ?? []) };
}

function pgBoss() {
  const engine = ENGINES.find((candidate) => candidate.id === "pg-boss");
  if (!engine) throw new Error("the queue suite has no pg-boss engine");
  return engine;
}

/** The worker sides' counts; with `functions`, by function too (main.ts --functions). */
export async function countWorker(
  url: string,
  settings: InstructionSettings,
  functions = false,
): Promise<Counted<WorkerSide>> {
  const engine = pgBoss();
  const node = engine.node();
  const env = { POSTGRES_URL: url };
  const queueOf = (side: WorkerSide) => `tx-${side}-${process.pid}`;
  const producer = new Child("queue/producer.ts", { node, env, args: [engine.id, String(BODY_BYTES)] });
  const worker = new CallgrindChild(
    "transactions/worker.ts",
    { node, env, args: [String(CONCURRENCY), queueOf("bare"), queueOf("ours")] },
    { functions },
  );
  const added = new Map<WorkerSide, number>(WORKER_SIDES.map((side) => [side, 0]));
  const run = async (side: WorkerSide, count: number) => {
    const total = (added.get(side) ?? 0) + count;
    added.set(side, total);
    const done = worker.call<number>("until", { side, count: total });
    await producer.call("add", { queue: queueOf(side), count });
    const handled = await done;
    if (handled !== total) throw new Error(`${side}: ${handled}/${total} jobs handled`);
  };
  try {
    return await countInTurns(new Map(WORKER_SIDES.map((side) => [side, worker])), settings, functions, run);
  } finally {
    await Promise.all([producer.stop(), worker.stop()]);
  }
}
