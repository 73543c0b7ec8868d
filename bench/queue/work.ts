/**
 * Instructions per job of a worker process under callgrind: our createWorker against the engine's own worker running
 * the same handler with the same engine options, each on its own queue, in one process so that both run the same
 * JIT-compiled engine code (in separate processes, which of the engine's functions V8 happened to optimise moved
 * the count by more than our layer costs). A producer (not counted) adds each window's jobs through enqueueTo; the
 * window ends when that worker has run them all, while the other worker waits on its empty queue.
 */
import { CallgrindChild } from "../instructions/callgrind-child";
import { type Counted, countInTurns } from "../instructions/turns";
import { Child } from "../lib/children";
import type { QueueSettings } from "../lib/options";
import type { Backend, EngineSpec } from "./engines";
import type { WorkerKind } from "./engines/engine";
import type { Handled } from "./worker";

export const WORKER_KINDS: readonly WorkerKind[] = ["bare", "ours"];

export async function measureWorkers(
  engine: EngineSpec,
  backend: Backend,
  settings: QueueSettings,
  functions = false,
): Promise<Counted<WorkerKind>> {
  const node = engine.node();
  const queueOf = (kind: WorkerKind) => `work-${kind}-${process.pid}`;
  const producer = new Child("queue/producer.ts", {
    node,
    env: backend.env,
    args: [engine.id, String(settings.bodyBytes)],
  });
  const args = [engine.id, String(settings.concurrency), ...WORKER_KINDS.map((kind) => `${kind}:${queueOf(kind)}`)];
  const workers = new CallgrindChild("queue/worker.ts", { node, env: backend.env, args }, { functions });
  const added = new Map<WorkerKind, number>(WORKER_KINDS.map((kind) => [kind, 0]));
  const run = async (kind: WorkerKind, count: number) => {
    const total = (added.get(kind) ?? 0) + count;
    added.set(kind, total);
    const done = workers.call<Handled>("until", { queue: queueOf(kind), count: total });
    await producer.call("add", { queue: queueOf(kind), count });
    await done;
  };
  try {
    return await countInTurns(new Map(WORKER_KINDS.map((kind) => [kind, workers])), settings.worker, functions, run);
  } finally {
    await Promise.all([producer.stop(), workers.stop()]);
  }
}
