import { formatBytes } from "../lib/deliveries";
import type { Summary } from "../lib/stats";
import type { RoundRatios } from "./batched";
import { BATCH_TARGETS, type EngineResult, type InstructionPair, QUEUE_TARGET, type QueueResults } from "./suite";

const dash = "–";
const thousands = (summary: Summary) =>
  summary.n > 1
    ? `${(summary.median / 1000).toFixed(1)} (${(summary.min / 1000).toFixed(1)}${dash}${(summary.max / 1000).toFixed(1)})`
    : (summary.median / 1000).toFixed(1);
const whole = (summary: Summary) =>
  summary.n > 1
    ? `${summary.median.toFixed(0)} (${summary.min.toFixed(0)}${dash}${summary.max.toFixed(0)})`
    : summary.median.toFixed(0);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const failed = (engine: EngineResult) => `failed: ${engine.error?.split("\n")[0] ?? "not measured"}`;

/** The Targets table's rows: judged on the minima, as the HTTP instruction target is. */
export function queueTargets(results: QueueResults | undefined) {
  return (results?.engines ?? []).flatMap((engine) => {
    const row = (what: string, measured: InstructionPair | undefined) => ({
      what: `${engine.label.split(",")[0]}: ${what} ≤ ${QUEUE_TARGET.toFixed(2)}×`,
      measured: measured
        ? `${measured.ratio.toFixed(3)}× (minima; medians ${measured.medianRatio.toFixed(3)}×)`
        : failed(engine),
      met: measured ? measured.ratio <= QUEUE_TARGET : false,
    });
    const rows = [
      row("instructions per request of adapter + enqueueTo ÷ the ideal route", engine.enqueue),
      row("instructions per job of createWorker ÷ the engine's own worker", engine.worker),
    ];
    const verdict = batchVerdict(engine);
    if (!verdict) return rows;
    return [
      ...rows,
      {
        what: `${engine.label.split(",")[0]}: deliveries per CPU-second at 32 connections, ${verdict.target}`,
        measured: verdict.ratios ? `${ratioSpread(verdict.ratios)}; ${verdict.decision}` : failed(engine),
        met: verdict.met,
      },
    ];
  });
}

const BASELINES = { oneAddPerRequest: "one add per request", unbatched: "the unbatched enqueueTo" } as const;

/**
 * Group commit's target for an engine, and whether it is met: decided only when every round falls on the same side of
 * it (`met` undefined otherwise), as a spread across the target decides nothing. Undefined: the engine has no target.
 */
function batchVerdict(engine: EngineResult) {
  const batchTarget = BATCH_TARGETS[engine.id];
  if (!batchTarget) return undefined;
  const { against, atLeast } = batchTarget;
  const ratios = engine.batching?.against[against].cpu;
  const target = `batched enqueueTo ÷ ${BASELINES[against]} ≥ ${atLeast}×`;
  if (!ratios) return { target, ratios, met: false, decision: "" };
  if (ratios.min >= atLeast) return { target, ratios, met: true, decision: "every round at or above the target" };
  if (ratios.max < atLeast) return { target, ratios, met: false, decision: "every round below the target" };
  return { target, ratios, met: undefined, decision: "the rounds fall on both sides of the target" };
}

/** Median (min–max) over rounds, then each round's ratio. */
function ratioSpread({ median, min, max, perRound }: RoundRatios): string {
  const rounds = perRound.map((ratio) => ratio.toFixed(2)).join(", ");
  return `${median.toFixed(2)}× (${min.toFixed(2)}–${max.toFixed(2)}; per round ${rounds})`;
}

/** The judged table: each route's CPU per delivery, the ratios, and the engine's target. */
function batchingRows(results: QueueResults) {
  return results.engines.map((engine) => {
    const batching = engine.batching;
    if (!batching) return [engine.label, failed(engine), "", "", "", "", "", ""];
    const { batched, oneAddPerRequest, unbatched } = batching.routes;
    const verdict = batchVerdict(engine);
    const status = verdict?.met === undefined ? "undecided" : verdict.met ? "met" : "**missed**";
    return [
      engine.label,
      ...[batched, oneAddPerRequest, unbatched].map((route) => whole(route.cpuMicrosPerDelivery)),
      ratioSpread(batching.against.oneAddPerRequest.cpu),
      ratioSpread(batching.against.unbatched.cpu),
      verdict?.target ?? "none",
      verdict ? `${status}: ${verdict.decision}` : "",
    ];
  });
}

/** Answered/s and POST p99 beside it, reported, not judged. */
function loadRows(results: QueueResults) {
  return results.engines.flatMap((engine) => {
    const batching = engine.batching;
    if (!batching) return [];
    const routes = [batching.routes.batched, batching.routes.oneAddPerRequest, batching.routes.unbatched];
    const { oneAddPerRequest, unbatched } = batching.against;
    return [
      [
        engine.label,
        routes.map((route) => whole(route.answeredPerSecond)).join(" / "),
        `${oneAddPerRequest.answered.median.toFixed(2)} / ${unbatched.answered.median.toFixed(2)}`,
        routes.map((route) => whole(route.latencyP99Ms)).join(" / "),
      ],
    ];
  });
}

function pairRows(results: QueueResults, of: (engine: EngineResult) => InstructionPair | undefined) {
  return results.engines.map((engine) => {
    const measured = of(engine);
    return measured
      ? [
          engine.label,
          thousands(measured.base),
          thousands(measured.ours),
          measured.ratio.toFixed(3),
          measured.medianRatio.toFixed(3),
        ]
      : [engine.label, failed(engine), "", "", ""];
  });
}

export function renderQueue(results: QueueResults): string {
  const { settings } = results;
  const { enqueue, worker } = settings;
  const measuredBatching = results.engines.find((engine) => engine.batching)?.batching;
  const batchingRounds = measuredBatching?.rounds ?? settings.batching.rounds;
  const batchingWarmup = measuredBatching?.warmupDeliveries ?? settings.batching.warmupDeliveries;
  const endToEnd = results.engines.flatMap((engine) =>
    (engine.endToEnd ?? []).map((run) => [
      engine.label,
      String(run.workers),
      whole(run.deliveriesPerSecond),
      whole(run.answeredPerSecond),
      whole(run.latencyP99Ms),
    ]),
  );
  return [
    "## 5. Queue hand-off (BullMQ, pg-boss)",
    "",
    `The receiver hands each verified delivery to a queue and answers 200 once the engine has stored the job; worker processes run the handlers. Real servers: Debian's redis-server (append-only file, fsync on every write, as the tests run it) and PostgreSQL (fsync off, as the tests run it), each started for this suite on a free port. pg-boss needs Node ≥ 22.12: its receiver, worker and producer processes run on the project's Node 24 binary, and its ideal route on the same binary. pg-boss instances run without maintenance or cron (their periodic queries would land in random counting windows) and poll every 0.5 s when idle.`,
    "",
    "**Receiver, instructions per request (callgrind).** One node:http server process per engine under callgrind, as in section 4, with two routes taking turns: **ideal** reads the body, verifies inline with plain node:crypto, parses and adds a job holding the same data as `enqueueTo`'s (the event, its type, delivery key, timestamp and secret index, and the body's SHA-256, which a worker's context carries), with the same job id, attempts, backoff and retention (`queue.add` / `boss.send`); **adapter** is core's Node request handler with a Receiver (MemoryStore dedup) whose one handler is `enqueueTo(queue)`. Every request is a new event, so both routes add a job per request, and the run fails unless the engine holds exactly one job per request. " +
      `${formatBytes(settings.bodyBytes)} deliveries over 4 keep-alive connections; ${enqueue.warmupRequests.toLocaleString("en-US")} warm-up requests per route, then ${enqueue.windows} window(s) of ${enqueue.windowRequests.toLocaleString("en-US")} per route. Thousands of instructions per request, median (min${dash}max) over windows. Valgrind hides the CPU's SHA extensions, so OpenSSL runs its AVX2 SHA-256 under it, which takes 2.3 times as long on this machine as the code it runs natively: SHA-256 work (the HMAC and the body's digest, on both routes) weighs more in these counts than in CPU time. Where the adapter's extra instructions go: docs/performance.md.`,
    "",
    table(
      ["engine", "ideal, k instr/req", "adapter + enqueueTo, k instr/req", "÷ ideal (minima)", "(medians)"],
      pairRows(results, (engine) => engine.enqueue),
    ),
    "",
    `**Worker, instructions per job (callgrind).** One worker process per engine under callgrind runs two workers, each on its own queue, taking turns (in one process both run the same JIT-compiled engine code): **bare** is the engine's own worker (BullMQ \`new Worker(queue, async (job) => handler(job.data.event), { concurrency })\`; pg-boss \`boss.work\` with the options \`createWorker\` passes: \`batchSize\` = concurrency, per-job results, fetching again at once while batches come back full); **ours** is \`createWorker({ ..., concurrency }).onAny(handler)\`. The handler counts the job. A producer process (not counted) adds each window's jobs through \`enqueueTo\`, and a window ends when its worker has run them all; the other worker waits on its empty queue meanwhile (pg-boss's polls it, in both sides' windows alike). Concurrency ${settings.concurrency}; ${worker.warmupRequests.toLocaleString("en-US")} warm-up jobs per worker, then ${worker.windows} window(s) of ${worker.windowRequests.toLocaleString("en-US")} jobs each. Thousands of instructions per job.`,
    "",
    table(
      ["engine", "engine's own worker, k instr/job", "createWorker, k instr/job", "÷ own (minima)", "(medians)"],
      pairRows(results, (engine) => engine.worker),
    ),
    "",
    `**Group commit at 32 connections.** One receiver process per engine (not under callgrind), autocannon at 32 connections sending distinct signed ${formatBytes(settings.bodyBytes)} deliveries, no workers (the receiving side alone), three routes: **batched** is the adapter route with \`enqueueTo(queue, { batch: BATCH_DEFAULTS })\` (group commit: concurrent deliveries share one \`addBulk\` / \`insert\`; on by default on pg-boss, off on BullMQ); **one add per request** is the hand-written ideal route above (verify inline, one \`queue.add\` / \`boss.send\` per request); **unbatched** is the adapter route with \`enqueueTo(queue, { batch: false })\`. Every route's queue must hold one job per delivery answered 200.`,
    "",
    `Method: ${batchingWarmup.toLocaleString("en-US")} warm-up deliveries per route (as many as the callgrind suites warm with: the adapter has more code to tier up than a hand-written route), then ${batchingRounds} round(s) in which each route takes ${settings.deliveries.toLocaleString("en-US")} deliveries, in an order that rotates from round to round. Judged on the receiver's CPU time per delivery (its \`process.cpuUsage()\` over a run ÷ deliveries), which the machine's load moves least: a ratio is deliveries per CPU-second, batched ÷ the baseline (the baseline's CPU per delivery ÷ batched's), taken within each round; shown as median (min${dash}max) over rounds, then round by round. A target is met only when every round is at or above it, missed only when every round is below it, and otherwise undecided.`,
    "",
    table(
      [
        "engine",
        "batched, CPU µs per delivery",
        "one add per request, CPU µs per delivery",
        "unbatched, CPU µs per delivery",
        "batched ÷ one add per request, per CPU-second",
        "batched ÷ unbatched, per CPU-second",
        "target",
        "status",
      ],
      batchingRows(results),
    ),
    "",
    `Reported beside it, not judged (the machine's load moves them more): answered/s and POST p99 per route, median (min${dash}max) over the same rounds, and the answered/s ratios within rounds, median over rounds.`,
    "",
    table(
      [
        "engine",
        "answered/s (batched / one add / unbatched)",
        "answered/s ratios (÷ one add / ÷ unbatched)",
        "POST p99 ms (batched / one add / unbatched)",
      ],
      loadRows(results),
    ),
    "",
    `**End to end (reported, no target).** One receiver process (the adapter route), ${settings.workerProcesses.join(", ")} worker process(es) (\`createWorker\`, concurrency ${settings.concurrency} each, a handler that counts), the engine's server and the load client (autocannon, ${settings.connections} connections, distinct signed ${formatBytes(settings.bodyBytes)} deliveries) share the machine's cores, unpinned. A run sends ${settings.warmupDeliveries.toLocaleString("en-US")} warm-up deliveries, waits until they are handled, then ${settings.deliveries.toLocaleString("en-US")} more: **deliveries/s** is those divided by the time from the first request to the last handler run; **answered/s** is the POSTs answered 200 per second (the receiving side alone). Fresh processes and queue per run; ${settings.rounds} round(s), worker counts in a rotating order; median (min${dash}max) over rounds.`,
    "",
    table(["engine", "worker processes", "deliveries/s", "answered/s", "POST p99 ms"], endToEnd),
  ].join("\n");
}
