/**
 * The durable hand-off, per engine: what enqueueTo adds to a receiver's instructions per request, what createWorker
 * adds to a worker's instructions per job (targets: ≤ 1.10× each), group commit at 32 connections (targets in
 * BATCH_TARGETS, judged on deliveries per instruction; CPU time and answered/s reported), and deliveries per second
 * end to end with 1, 2 and 4 worker processes (reported).
 */
import { Child } from "../lib/children";
import type { QueueSettings } from "../lib/options";
import { type Pair, pairOf, rotate, type Summary, summarize } from "../lib/stats";
import { type BatchingResult, measureBatching } from "./batched";
import { type BatchingCount, countBatching, type WindowRatios } from "./batched-instructions";
import { type EndToEndRun, runEndToEnd } from "./end-to-end";
import { type Backend, ENGINES } from "./engines";
import { measureEnqueue } from "./enqueue";
import { measureWorkers } from "./work";

export const QUEUE_TARGET = 1.1;
/**
 * Group commit's target per engine: the batched enqueueTo ÷ a baseline route, in deliveries per instruction of the
 * receiver process, at least this. On pg-boss batching is the default and must pay (÷ one add per request ≥ 2); on BullMQ it is off by default,
 * which holds as long as turning it on costs nothing (÷ the unbatched enqueueTo ≥ 0.95).
 */
export const BATCH_TARGETS: Record<string, { against: "oneAddPerRequest" | "unbatched"; atLeast: number }> = {
  bullmq: { against: "unbatched", atLeast: 0.95 },
  "pg-boss": { against: "oneAddPerRequest", atLeast: 2 },
};

/** Instructions per request or job over windows, two sides, and their ratio. */
export type InstructionPair = Pair;

export interface EndToEndResult {
  workers: number;
  deliveriesPerSecond: Summary;
  answeredPerSecond: Summary;
  latencyP99Ms: Summary;
}

export interface EngineResult {
  id: string;
  label: string;
  error?: string;
  /** Receiver: the ideal route (base) against the adapter with enqueueTo (ours). */
  enqueue?: InstructionPair;
  /** Worker: the engine's own worker (base) against createWorker (ours). */
  worker?: InstructionPair;
  endToEnd?: EndToEndResult[];
  /** Group commit at 32 connections, timed: the batched enqueueTo against one add per request and the unbatched one. */
  batching?: BatchingResult;
  /** The same routes under callgrind: instructions per delivery, where the targets are judged. */
  batchingCount?: BatchingCount;
}

export interface QueueResults {
  settings: QueueSettings;
  engines: EngineResult[];
}

type Log = (line: string) => void;

const ratios = ({ ratio, medianRatio }: InstructionPair) =>
  `${ratio.toFixed(3)} (minima), ${medianRatio.toFixed(3)} (medians)`;

/** Batched ÷ each baseline in deliveries per instruction, and the batched route's jobs per write. */
function countLine({ against, routes }: BatchingCount): string {
  const of = ({ minima, medians, min, max }: WindowRatios) =>
    `${minima.toFixed(3)} (minima), ${medians.toFixed(3)} (medians), windows ${min.toFixed(3)}–${max.toFixed(3)}`;
  const perWrite = routes.batched.jobsPerWrite.median.toFixed(1);
  return `batched ÷ one add per request ${of(against.oneAddPerRequest)}; ÷ unbatched ${of(against.unbatched)}; batched ${perWrite} jobs per write`;
}

/** One run per worker count in each round, in a rotating order; then each worker count's runs summarised. */
async function endToEnd(run: (workers: number) => Promise<EndToEndRun>, settings: QueueSettings, log: Log) {
  const runs: EndToEndRun[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    for (const workers of rotate(settings.workerProcesses, round)) {
      const result = await run(workers);
      log(`  ${workers} worker(s): ${result.deliveriesPerSecond.toFixed(0)} deliveries/s end to end`);
      runs.push(result);
    }
  }
  return settings.workerProcesses.map((workers): EndToEndResult => {
    const of = runs.filter((result) => result.workers === workers);
    return {
      workers,
      deliveriesPerSecond: summarize(of.map((result) => result.deliveriesPerSecond)),
      answeredPerSecond: summarize(of.map((result) => result.answeredPerSecond)),
      latencyP99Ms: summarize(of.map((result) => result.latencyP99Ms)),
    };
  });
}

/** Engines one after another, each on a server of its own; a failure is reported, not fatal. */
export async function runQueueSuite(settings: QueueSettings, engineIds: readonly string[], log: Log) {
  const engines: EngineResult[] = [];
  for (const engine of ENGINES.filter((candidate) => engineIds.includes(candidate.id))) {
    const result: EngineResult = { id: engine.id, label: engine.id };
    engines.push(result);
    let started: Backend | undefined;
    try {
      result.label = engine.label();
      const backend = await engine.start();
      started = backend;
      const enqueue = await measureEnqueue(engine, backend, settings);
      result.enqueue = pairOf(enqueue.windows.get("ideal") ?? [], enqueue.windows.get("adapter") ?? []);
      log(`queue ${engine.id}: receiver instructions, adapter + enqueueTo ÷ ideal ${ratios(result.enqueue)}`);
      const workers = await measureWorkers(engine, backend, settings);
      result.worker = pairOf(workers.windows.get("bare") ?? [], workers.windows.get("ours") ?? []);
      log(`queue ${engine.id}: worker instructions, createWorker ÷ the engine's own ${ratios(result.worker)}`);
      result.batchingCount = (await countBatching(engine, backend, settings)).result;
      log(`queue ${engine.id}: group commit by instructions, ${countLine(result.batchingCount)}`);
      const client = new Child("http/client.ts", {});
      try {
        log(`queue ${engine.id}: group commit at 32 connections, timed (reported)`);
        result.batching = await measureBatching(engine, backend, settings, client, log);
        const { oneAddPerRequest, unbatched } = result.batching.against;
        log(
          `queue ${engine.id}: batched ÷ one add per request ${oneAddPerRequest.cpu.median.toFixed(2)}, ÷ unbatched ${unbatched.cpu.median.toFixed(2)} (deliveries per CPU-second, median over rounds; reported)`,
        );
        log(`queue ${engine.id}: end to end`);
        const run = (workers: number) => runEndToEnd(engine, backend, settings, client, workers);
        result.endToEnd = await endToEnd(run, settings, log);
      } finally {
        await client.stop();
      }
    } catch (error) {
      result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`queue ${engine.id} FAILED: ${result.error}`);
    } finally {
      await started?.remove();
    }
  }
  return { settings, engines };
}
