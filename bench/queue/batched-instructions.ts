/**
 * Group commit by instructions, where its targets are judged: the receiver process (receiver.ts) under callgrind
 * serves the batched, one-add-per-request and unbatched routes (batched.ts), which take turns, one window of
 * deliveries each, after the same warm-up per route as the timed runs; 32 connections, as there. Counting windows
 * of one process, the machine's load does not move the ratio. What the count sees of a round trip saved: the
 * statements built and parsed, the socket writes and reads, the promises settled. What it does not see: the time
 * spent waiting on the engine's server, and the server's own work. How many jobs a batch holds depends on timing
 * (deliveries that arrive while a write is in flight), so each window's jobs per engine write is kept beside it.
 */
import { Agent } from "node:http";
import { DeliveryFactory } from "../http/deliveries";
import { CallgrindChild } from "../instructions/callgrind-child";
import { postDeliveries } from "../instructions/post";
import { type Counted, countInTurns } from "../instructions/turns";
import type { InstructionSettings, QueueSettings } from "../lib/options";
import { type Summary, summarize } from "../lib/stats";
import type { Backend, EngineSpec } from "./engines";
import {
  BATCH_CONNECTIONS,
  BATCH_ROUTES,
  type BatchBaseline,
  type BatchRoute,
  expectJobs,
  WriteReadings,
} from "./receiver-routes";

const ROUTES = Object.keys(BATCH_ROUTES) as BatchRoute[];

/** One route's windows: instructions per delivery, and jobs per engine write. */
export interface CountedRoute {
  instructions: Summary;
  jobsPerWrite: Summary;
}

/**
 * Batched against a baseline in deliveries per instruction (the baseline's instructions per delivery ÷ batched's):
 * within each turn (`perWindow`, with its median and spread), of the quietest windows (`minima`, no full collection
 * in them) and of the medians.
 */
export interface WindowRatios extends Summary {
  perWindow: number[];
  minima: number;
  medians: number;
}

export interface BatchingCount {
  connections: number;
  settings: InstructionSettings;
  routes: Record<BatchRoute, CountedRoute>;
  against: Record<BatchBaseline, WindowRatios>;
}

export function windowRatios(batched: readonly number[], baseline: readonly number[]): WindowRatios {
  const perWindow = batched.map((count, window) => (baseline[window] ?? Number.NaN) / count);
  const [ours, base] = [summarize(batched), summarize(baseline)];
  return { ...summarize(perWindow), perWindow, minima: base.min / ours.min, medians: base.median / ours.median };
}

export async function countBatching(
  engine: EngineSpec,
  backend: Backend,
  settings: QueueSettings,
  functions = false,
): Promise<{ result: BatchingCount; counted: Counted<BatchRoute> }> {
  const count = settings.batchingCount;
  const base = `batch-count-${process.pid}`;
  const server = new CallgrindChild(
    "queue/receiver.ts",
    {
      node: engine.node(),
      env: backend.env,
      args: [engine.id, `${base}-adapter`, `${base}-ideal`, `${base}-batched`, `${base}-unbatched`],
    },
    { functions },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: BATCH_CONNECTIONS });
  const factory = new DeliveryFactory(settings.bodyBytes, base);
  const readings = new WriteReadings(server);
  // The warm-up's reading first, then one per window.
  const perWrite = new Map<BatchRoute, number[]>(ROUTES.map((route) => [route, []]));
  try {
    const port = await server.call<number>("port");
    const send = async (route: BatchRoute, amount: number) => {
      const connections = Math.min(BATCH_CONNECTIONS, amount);
      await postDeliveries(agent, connections, port, BATCH_ROUTES[route], factory, amount);
      perWrite.get(route)?.push(await readings.jobsPerWrite(route));
    };
    const counted = await countInTurns(new Map(ROUTES.map((route) => [route, server])), count, functions, send);
    await expectJobs(server, count.warmupRequests + count.windows * count.windowRequests);
    const windows = (route: BatchRoute) => counted.windows.get(route) ?? [];
    const routes = Object.fromEntries(
      ROUTES.map((route) => [
        route,
        { instructions: summarize(windows(route)), jobsPerWrite: summarize(perWrite.get(route)?.slice(1) ?? []) },
      ]),
    ) as Record<BatchRoute, CountedRoute>;
    const against = {
      oneAddPerRequest: windowRatios(windows("batched"), windows("oneAddPerRequest")),
      unbatched: windowRatios(windows("batched"), windows("unbatched")),
    };
    return { result: { connections: BATCH_CONNECTIONS, settings: count, routes, against }, counted };
  } finally {
    agent.destroy();
    await server.stop();
  }
}
