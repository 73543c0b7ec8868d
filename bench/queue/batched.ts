/**
 * Group commit under load, at 32 connections, timed: the adapter route with batching on (a Receiver whose handler is
 * `enqueueTo(queue, { batch: BATCH_DEFAULTS })`) against the hand-written route (verify inline, one `queue.add` /
 * `boss.send` per request) and against the adapter with `batch: false`, in one receiver process on one engine server,
 * routes taking turns in a rotating order. No workers run: the jobs stay in the queues, and what is measured is the
 * receiving side: its CPU time per delivery, answered/s and jobs per engine write. Reported, not judged: on a shared
 * machine the rounds' spread is wider than the effects judged (the targets are judged by instructions,
 * batched-instructions.ts).
 */
import type { LoadResult } from "../http/protocol";
import { Child } from "../lib/children";
import type { QueueSettings } from "../lib/options";
import { rotate, type Summary, summarize } from "../lib/stats";
import type { Backend, EngineSpec } from "./engines";
import {
  BATCH_CONNECTIONS,
  BATCH_ROUTES,
  type BatchBaseline,
  type BatchRoute,
  expectJobs,
  WriteReadings,
} from "./receiver-routes";

export interface RouteLoad {
  answeredPerSecond: Summary;
  latencyP99Ms: Summary;
  /** The receiver process's CPU time per delivery answered, µs. */
  cpuMicrosPerDelivery: Summary;
  /** Jobs per engine write (`add` / `send` one, `addBulk` / `insert` many). Absent from older results. */
  jobsPerWrite?: Summary;
}

interface RouteRun extends LoadResult {
  cpuMicrosPerDelivery: number;
  jobsPerWrite: number;
}

/** A ratio per round (the same round's runs side by side), with its median and spread over rounds. */
export interface RoundRatios extends Summary {
  perRound: number[];
}

/** Batched against one baseline route: by answered/s, and by deliveries per CPU-second (the baseline's CPU ÷ batched). */
export interface BatchComparison {
  answered: RoundRatios;
  cpu: RoundRatios;
}

export interface BatchingResult {
  connections: number;
  rounds: number;
  deliveries: number;
  warmupDeliveries: number;
  routes: Record<BatchRoute, RouteLoad>;
  /** Batched ÷ each baseline route. */
  against: Record<BatchBaseline, BatchComparison>;
}

type Log = (line: string) => void;

export async function measureBatching(
  engine: EngineSpec,
  backend: Backend,
  settings: QueueSettings,
  client: Child,
  log: Log,
): Promise<BatchingResult> {
  const base = `batch-${process.pid}`;
  const receiver = new Child("queue/receiver.ts", {
    node: engine.node(),
    env: backend.env,
    args: [engine.id, `${base}-adapter`, `${base}-ideal`, `${base}-batched`, `${base}-unbatched`],
  });
  const routes = Object.keys(BATCH_ROUTES) as BatchRoute[];
  const runs = new Map<BatchRoute, RouteRun[]>(routes.map((route) => [route, []]));
  const readings = new WriteReadings(receiver);
  try {
    const port = await receiver.call<number>("port");
    let runId = 0;
    const load = async (route: BatchRoute, amount: number): Promise<RouteRun> => {
      const cpuBefore = await receiver.call<number>("cpu");
      const result = await client.call<LoadResult>("run", {
        port,
        path: BATCH_ROUTES[route],
        connections: Math.min(BATCH_CONNECTIONS, amount),
        amount,
        bodyBytes: settings.bodyBytes,
        tag: `${base}-${runId++}`,
        source: "pool",
      });
      if (result.ok !== amount || result.mismatches > 0) {
        throw new Error(`${route}: ${result.ok}/${amount} answered 200 with the Receiver's answer`);
      }
      const cpuMicrosPerDelivery = ((await receiver.call<number>("cpu")) - cpuBefore) / amount;
      return { ...result, cpuMicrosPerDelivery, jobsPerWrite: await readings.jobsPerWrite(route) };
    };
    const { warmupDeliveries, rounds } = settings.batching;
    for (const route of routes) await load(route, warmupDeliveries);
    for (let round = 0; round < rounds; round++) {
      const line: string[] = [];
      for (const route of rotate(routes, round)) {
        const result = await load(route, settings.deliveries);
        runs.get(route)?.push(result);
        const cpu = result.cpuMicrosPerDelivery.toFixed(0);
        const perWrite = result.jobsPerWrite.toFixed(1);
        line.push(
          `${route} ${result.requestsPerSecond.toFixed(0)}/s p99 ${result.latencyP99Ms} ms cpu ${cpu} µs ${perWrite} jobs/write`,
        );
      }
      log(`  round ${round + 1}: ${line.join(", ")}`);
    }
    await expectJobs(receiver, warmupDeliveries + rounds * settings.deliveries);
  } finally {
    await receiver.stop();
  }
  const of = (route: BatchRoute): RouteLoad => {
    const results = runs.get(route) ?? [];
    return {
      answeredPerSecond: summarize(results.map((result) => result.requestsPerSecond)),
      latencyP99Ms: summarize(results.map((result) => result.latencyP99Ms)),
      cpuMicrosPerDelivery: summarize(results.map((result) => result.cpuMicrosPerDelivery)),
      jobsPerWrite: summarize(results.map((result) => result.jobsPerWrite)),
    };
  };
  const measured = Object.fromEntries(routes.map((route) => [route, of(route)])) as Record<BatchRoute, RouteLoad>;
  const ratios = (perRound: number[]): RoundRatios => ({ ...summarize(perRound), perRound });
  const compare = (baseline: BatchBaseline): BatchComparison => {
    const [batched, other] = [runs.get("batched") ?? [], runs.get(baseline) ?? []];
    return {
      answered: ratios(batched.map((run, round) => run.requestsPerSecond / (other[round]?.requestsPerSecond ?? NaN))),
      cpu: ratios(batched.map((run, round) => (other[round]?.cpuMicrosPerDelivery ?? NaN) / run.cpuMicrosPerDelivery)),
    };
  };
  return {
    connections: BATCH_CONNECTIONS,
    rounds: settings.batching.rounds,
    deliveries: settings.deliveries,
    warmupDeliveries: settings.batching.warmupDeliveries,
    routes: measured,
    against: { oneAddPerRequest: compare("oneAddPerRequest"), unbatched: compare("unbatched") },
  };
}
