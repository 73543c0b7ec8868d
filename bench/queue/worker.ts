/**
 * A worker process of the queue benchmark: argv engine, concurrency, then one or more `kind:queue` (kind `ours`:
 * createWorker; `bare`: the engine's own worker), each a worker on its queue in this process. Every worker's
 * handler counts the jobs it ran and notes when the last one ran.
 */
import { serveCommands } from "../lib/children";
import { type EngineId, openEngine, type WorkerKind } from "./engines/engine";

export interface Handled {
  count: number;
  /** Wall-clock time of the last run, ms since the epoch (compared with other processes' clocks). */
  lastAt: number;
}

const [engineId, concurrency, ...workers] = process.argv.slice(2);
const engine = await openEngine(engineId as EngineId);
const handled = new Map<string, Handled>();
const waiting = new Map<string, { count: number; resolve(): void }>();

for (const worker of workers) {
  const [kind, queue = ""] = worker.split(":");
  const counts: Handled = { count: 0, lastAt: 0 };
  handled.set(queue, counts);
  await engine.startWorker(kind as WorkerKind, queue, Number(concurrency), () => {
    counts.count++;
    counts.lastAt = performance.timeOrigin + performance.now();
    const wait = waiting.get(queue);
    if (wait && counts.count >= wait.count) wait.resolve();
  });
}

function countsOf(queue: string): Handled {
  const counts = handled.get(queue);
  if (!counts) throw new Error(`no worker on queue ${queue} in this process`);
  return counts;
}

serveCommands({
  handled: ({ queue }: { queue: string }) => countsOf(queue),
  /** Resolves once `count` jobs of the queue have run in all: one message each way, however long they take. */
  until: ({ queue, count }: { queue: string; count: number }) => {
    const counts = countsOf(queue);
    if (counts.count >= count) return counts;
    return new Promise<Handled>((resolve) => {
      waiting.set(queue, {
        count,
        resolve: () => {
          waiting.delete(queue);
          resolve(counts);
        },
      });
    });
  },
});
