import { formatBytes } from "../lib/deliveries";
import type { Summary } from "../lib/stats";
import type { RoundRatios } from "./batched";
import type { WindowRatios } from "./batched-instructions";
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
        what: `${engine.label.split(",")[0]}: deliveries per instruction at 32 connections, ${verdict.target}`,
        measured: verdict.ratios ? `${windowSpread(verdict.ratios)}; ${verdict.decision}` : failed(engine),
        met: verdict.met,
      },
    ];
  });
}

const BASELINES = { oneAddPerRequest: "one add per request", unbatched: "the unbatched enqueueTo" } as const;

/**
 * Group commit's target for an engine, and whether it is met, judged by instructions: met when the ratio of the
 * quietest windows (minima) and the ratio of the medians are both at or above it, missed when both are below, and
 * undecided (`met` undefined) when they fall on either side. Undefined: the engine has no target.
 */
function batchVerdict(engine: EngineResult) {
  const batchTarget = BATCH_TARGETS[engine.id];
  if (!batchTarget) return undefined;
  const { against, atLeast } = batchTarget;
  const ratios = engine.batchingCount?.against[against];
  const target = `batched enqueueTo ÷ ${BASELINES[against]} ≥ ${atLeast}×`;
  if (!ratios) return { target, ratios, met: false, decision: "" };
  const { minima, medians } = ratios;
  // Four decimals, so that a ratio just below the target does not read as the target itself.
  const both = `minima ${minima.toFixed(4)} and medians ${medians.toFixed(4)}`;
  if (minima >= atLeast && medians >= atLeast) return { target, ratios, met: true, decision: `${both} at or above` };
  if (minima < atLeast && medians < atLeast) return { target, ratios, met: false, decision: `${both} below` };
  return { target, ratios, met: undefined, decision: `${both} on either side of the target` };
}

/** Minima and medians, then the spread of the ratios taken within each turn. */
function windowSpread({ minima, medians, min, max }: WindowRatios): string {
  return `${minima.toFixed(3)}× (minima; medians ${medians.toFixed(3)}×; windows ${min.toFixed(3)}${dash}${max.toFixed(3)})`;
}

/** Median (min–max) over rounds, then each round's ratio. */
function ratioSpread({ median, min, max, perRound }: RoundRatios): string {
  const rounds = perRound.map((ratio) => ratio.toFixed(2)).join(", ");
  return `${median.toFixed(2)}× (${min.toFixed(2)}${dash}${max.toFixed(2)}; per round ${rounds})`;
}

const oneDecimal = (summary: Summary | undefined) =>
  summary === undefined
    ? "n/a"
    : summary.n > 1
      ? `${summary.median.toFixed(1)} (${summary.min.toFixed(1)}${dash}${summary.max.toFixed(1)})`
      : summary.median.toFixed(1);

/** The judged table: each route's instructions per delivery and jobs per write, the ratios, and the target. */
function countRows(results: QueueResults) {
  return results.engines.map((engine) => {
    const count = engine.batchingCount;
    if (!count) return [engine.label, failed(engine), "", "", "", "", "", "", ""];
    const { batched, oneAddPerRequest, unbatched } = count.routes;
    const verdict = batchVerdict(engine);
    const status = verdict?.met === undefined ? "undecided" : verdict.met ? "met" : "**missed**";
    return [
      engine.label,
      ...[batched, oneAddPerRequest, unbatched].map((route) => thousands(route.instructions)),
      [batched, unbatched].map((route) => oneDecimal(route.jobsPerWrite)).join(" / "),
      windowSpread(count.against.oneAddPerRequest),
      windowSpread(count.against.unbatched),
      verdict?.target ?? "none",
      verdict ? `${status}: ${verdict.decision}` : "",
    ];
  });
}

/** The timed runs' CPU per delivery and jobs per write, with the ratios within rounds: reported, not judged. */
function cpuRows(results: QueueResults) {
  return results.engines.flatMap((engine) => {
    const batching = engine.batching;
    if (!batching) return [];
    const { batched, oneAddPerRequest, unbatched } = batching.routes;
    return [
      [
        engine.label,
        ...[batched, oneAddPerRequest, unbatched].map((route) => whole(route.cpuMicrosPerDelivery)),
        [batched, unbatched].map((route) => oneDecimal(route.jobsPerWrite)).join(" / "),
        ratioSpread(batching.against.oneAddPerRequest.cpu),
        ratioSpread(batching.against.unbatched.cpu),
      ],
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
  const count =
    results.engines.find((engine) => engine.batchingCount)?.batchingCount?.settings ?? settings.batchingCount;
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
    `**Group commit at 32 connections.** Distinct signed ${formatBytes(settings.bodyBytes)} deliveries over 32 keep-alive connections to one receiver process per engine, no workers (the receiving side alone), three routes: **batched** is the adapter route with \`enqueueTo(queue, { batch: BATCH_DEFAULTS })\` (group commit: deliveries that arrive together share one \`addBulk\` / \`insert\`; on by default on pg-boss, off on BullMQ); **one add per request** is the hand-written ideal route above (verify inline, one \`queue.add\` / \`boss.send\` per request); **unbatched** is the adapter route with \`enqueueTo(queue, { batch: false })\`. Every route's queue must hold one job per delivery answered 200. **Jobs per write** is the jobs a route handed the engine ÷ its engine writes (an \`add\` / \`send\` is one write, an \`addBulk\` / \`insert\` another).`,
    "",
    `Judged by instructions: the receiver process runs under callgrind, as above, and the routes take turns, one window of ${count.windowRequests.toLocaleString("en-US")} deliveries each, ${count.windows} time(s), after ${count.warmupRequests.toLocaleString("en-US")} warm-up deliveries per route (as many as the other callgrind suites warm with: the adapter has more code to tier up than a hand-written route). A ratio is deliveries per instruction, batched ÷ the baseline (the baseline's instructions per delivery ÷ batched's): of the quietest windows (minima, no full collection in them, as the other instruction targets are judged), of the medians, and within each turn (windows, min${dash}max). A target is met when the minima and the medians are both at or above it, missed when both are below it, and otherwise undecided. A round trip saved shows in these counts as the commands or statements not built, the socket writes and reads not made and the promises not settled in the receiver's user space; what they do not see is the waiting: the time a delivery's answer waits on the engine's server (Redis running the scripts, PostgreSQL committing), the server's own work and the kernel's. How big a batch grows depends on timing (the deliveries that arrive while a write is in flight), and under callgrind the receiver runs many times slower while the engine's server does not: compare the jobs per write here with the timed runs'.`,
    "",
    table(
      [
        "engine",
        "batched, k instr per delivery",
        "one add per request, k instr per delivery",
        "unbatched, k instr per delivery",
        "jobs per write (batched / unbatched)",
        "batched ÷ one add per request, per instruction",
        "batched ÷ unbatched, per instruction",
        "target",
        "status",
      ],
      countRows(results),
    ),
    "",
    `Timed, reported and not judged (on a shared machine the rounds' spread is wider than the effects judged): the same routes in a receiver process not under callgrind, autocannon at 32 connections, ${batchingWarmup.toLocaleString("en-US")} warm-up deliveries per route, then ${batchingRounds} round(s) in which each route takes ${settings.deliveries.toLocaleString("en-US")} deliveries, in an order that rotates from round to round. The receiver's CPU time per delivery (its \`process.cpuUsage()\` over a run ÷ deliveries) and jobs per write, median (min${dash}max) over rounds; deliveries per CPU-second, batched ÷ the baseline (the baseline's CPU per delivery ÷ batched's) within each round, median (min${dash}max) over rounds, then round by round.`,
    "",
    table(
      [
        "engine",
        "batched, CPU µs per delivery",
        "one add per request, CPU µs per delivery",
        "unbatched, CPU µs per delivery",
        "jobs per write (batched / unbatched)",
        "batched ÷ one add per request, per CPU-second",
        "batched ÷ unbatched, per CPU-second",
      ],
      cpuRows(results),
    ),
    "",
    `From the same timed rounds: answered/s and POST p99 per route, median (min${dash}max) over rounds, and the answered/s ratios within rounds, median over rounds.`,
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
