/**
 * Instructions per request of the receiving side (receiver.ts) under callgrind: the adapter route (a Receiver whose
 * handler is enqueueTo) against the ideal route (verify inline, add the job by hand), taking turns in windows after a
 * warm-up; every request is a new event, so each one adds a job on both routes.
 */
import { Agent } from "node:http";
import { DeliveryFactory } from "../http/deliveries";
import { ROUTES } from "../http/routes";
import { CallgrindChild } from "../instructions/callgrind-child";
import { postDeliveries } from "../instructions/post";
import { type Counted, countInTurns } from "../instructions/turns";
import type { QueueSettings } from "../lib/options";
import type { Backend, EngineSpec } from "./engines";

export const ENQUEUE_ROUTES = ["ideal", "adapter"] as const;
export type EnqueueRoute = (typeof ENQUEUE_ROUTES)[number];
const CONNECTIONS = 4;

export async function measureEnqueue(
  engine: EngineSpec,
  backend: Backend,
  settings: QueueSettings,
  functions = false,
): Promise<Counted<EnqueueRoute>> {
  const { enqueue } = settings;
  const queues = { adapter: `enqueue-adapter-${process.pid}`, ideal: `enqueue-ideal-${process.pid}` };
  const server = new CallgrindChild(
    "queue/receiver.ts",
    { node: engine.node(), env: backend.env, args: [engine.id, queues.adapter, queues.ideal] },
    { functions },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const factory = new DeliveryFactory(settings.bodyBytes, `enqueue-${process.pid}`);
  try {
    const port = await server.call<number>("port");
    const send = (route: EnqueueRoute, amount: number) =>
      postDeliveries(agent, CONNECTIONS, port, ROUTES[route], factory, amount);
    const counted = await countInTurns(
      new Map(ENQUEUE_ROUTES.map((route) => [route, server])),
      enqueue,
      functions,
      send,
    );
    // A 200 means the job is stored: the engine must hold one job per request on each route.
    const jobs = await server.call<Record<EnqueueRoute, number>>("jobs");
    const sent = enqueue.warmupRequests + enqueue.windows * enqueue.windowRequests;
    for (const route of ENQUEUE_ROUTES) {
      if (jobs[route] !== sent) throw new Error(`${route}: ${jobs[route]} jobs for ${sent} deliveries`);
    }
    return counted;
  } finally {
    agent.destroy();
    await server.stop();
  }
}
