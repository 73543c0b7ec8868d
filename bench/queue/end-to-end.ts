/**
 * Deliveries per second from the first POST to the last handler run: one receiver process (a Receiver with
 * enqueueTo), N worker processes (createWorker), autocannon sending distinct signed deliveries; nothing pinned, so
 * every process shares the machine's cores with the engine's server, as on a small host.
 */
import type { LoadResult } from "../http/protocol";
import { ROUTES } from "../http/routes";
import { Child } from "../lib/children";
import type { QueueSettings } from "../lib/options";
import type { Backend, EngineSpec } from "./engines";
import type { Handled } from "./worker";

/** Fails a run whose workers stop making progress (a lost job would otherwise hang it). */
const STALL_MS = 60_000;
const POLL_MS = 20;

export interface EndToEndRun {
  workers: number;
  /** Deliveries ÷ (last handler run − first request). */
  deliveriesPerSecond: number;
  /** POSTs answered 200 per second: the receiver's side alone. */
  answeredPerSecond: number;
  latencyP99Ms: number;
}

function handledSoFar(workers: readonly Child[], queue: string): Promise<Handled[]> {
  return Promise.all(workers.map((worker) => worker.call<Handled>("handled", { queue })));
}

async function waitForHandled(workers: readonly Child[], queue: string, total: number): Promise<Handled[]> {
  let count = -1;
  let progressAt = Date.now();
  for (;;) {
    const handled = await handledSoFar(workers, queue);
    const sum = handled.reduce((all, { count: one }) => all + one, 0);
    if (sum >= total) return handled;
    if (sum !== count) [count, progressAt] = [sum, Date.now()];
    if (Date.now() - progressAt > STALL_MS) throw new Error(`workers stalled at ${sum} of ${total} deliveries handled`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

let runCounter = 0;

/** One run: `client` is a load client (http/client.ts); the receiver and workers are started for the run. */
export async function runEndToEnd(
  engine: EngineSpec,
  backend: Backend,
  settings: QueueSettings,
  client: Child,
  workerCount: number,
): Promise<EndToEndRun> {
  const run = runCounter++;
  const queue = `e2e-${process.pid}-${run}`;
  const options = { node: engine.node(), env: backend.env };
  const receiver = new Child("queue/receiver.ts", { ...options, args: [engine.id, queue, `${queue}-ideal`] });
  const workers = Array.from(
    { length: workerCount },
    () =>
      new Child("queue/worker.ts", { ...options, args: [engine.id, String(settings.concurrency), `ours:${queue}`] }),
  );
  try {
    const port = await receiver.call<number>("port");
    await handledSoFar(workers, queue);
    const load = (amount: number, phase: string) =>
      client.call<LoadResult>("run", {
        port,
        path: ROUTES.adapter,
        connections: Math.min(settings.connections, amount),
        amount,
        bodyBytes: settings.bodyBytes,
        tag: `${queue}-${phase}`,
        source: "pool",
      });
    await load(settings.warmupDeliveries, "warmup");
    await waitForHandled(workers, queue, settings.warmupDeliveries);
    const measured = await load(settings.deliveries, "run");
    if (measured.ok !== settings.deliveries || measured.mismatches > 0) {
      throw new Error(`${measured.ok}/${settings.deliveries} answered 200 with the Receiver's answer`);
    }
    const handled = await waitForHandled(workers, queue, settings.warmupDeliveries + settings.deliveries);
    const lastAt = Math.max(...handled.map(({ lastAt: at }) => at));
    return {
      workers: workerCount,
      deliveriesPerSecond: settings.deliveries / ((lastAt - measured.startedAt) / 1000),
      answeredPerSecond: measured.requestsPerSecond,
      latencyP99Ms: measured.latencyP99Ms,
    };
  } finally {
    await Promise.all([receiver.stop(), ...workers.map((worker) => worker.stop())]);
  }
}
