import { chartLines } from "./charts/specs";
import { HOSTILE_TARGET, type HostileRow, renderHostile } from "./hostile/suite";
import type { Comparison, ComparisonResult, FrameworkResult, HttpResults } from "./http/suite";
import type { InstructionResults } from "./instructions/suite";
import { formatBytes } from "./lib/deliveries";
import { fixed, spread, table, thousands } from "./lib/format";
import type { Machine } from "./lib/machine";
import type { Options, SuiteName } from "./lib/options";
import type { Summary } from "./lib/stats";
import type { MemoryResults } from "./memory/suite";
import { renderOrder } from "./order/report";
import type { OrderResults } from "./order/suite";
import { queueTargets, renderQueue } from "./queue/report";
import type { QueueResults } from "./queue/suite";
import { renderSchemes } from "./schemes/render";
import type { SchemeResults } from "./schemes/suite";
import { renderSecrets, type SecretResults } from "./secrets/suite";
import { renderTransactions } from "./transactions/report";
import type { TransactionResults } from "./transactions/suite";
import type { VerifyResults, VerifyRow } from "./verify/suite";

/** What the suites measured: the rows their sections, targets and charts are drawn from. */
export interface Results {
  verify?: VerifyResults | undefined;
  http?: HttpResults | undefined;
  memory?: MemoryResults | undefined;
  instructions?: InstructionResults | undefined;
  order?: OrderResults | undefined;
  hostile?: HostileRow[] | undefined;
  queue?: QueueResults | undefined;
  schemes?: SchemeResults | undefined;
  secrets?: SecretResults | undefined;
  transactions?: TransactionResults | undefined;
}

/** The results each suite writes (the instructions suite counts what `order` and transactions cost too). */
export const SUITE_RESULTS: Record<SuiteName, readonly (keyof Results)[]> = {
  verify: ["verify"],
  http: ["http"],
  memory: ["memory"],
  instructions: ["instructions", "order", "transactions"],
  hostile: ["hostile"],
  queue: ["queue"],
  schemes: ["schemes"],
  secrets: ["secrets"],
};

export interface RunReport extends Results {
  machine: Machine;
  loadAtEnd: string;
  pinning: string;
  options: Options;
  command: string;
  seconds: Record<string, number>;
  errors: string[];
  /** The charts folder, relative to the report; undefined: no charts. */
  charts?: string | undefined;
}

function row(results: VerifyResults | undefined, size: number, id: string): VerifyRow | undefined {
  return results?.sizes.find((entry) => entry.size === size)?.rows.find((entry) => entry.id === id);
}

interface Target {
  what: string;
  measured: string;
  met: boolean | undefined;
}

const target = (what: string, measured: string, met: boolean | undefined): Target => ({ what, measured, met });

function verifyTargets(results: VerifyResults | undefined): Target[] {
  if (!results) return [];
  const targets: Target[] = [];
  const ratio = (size: number, limit: number) => {
    const verify = row(results, size, "verify");
    if (verify) {
      const what = `verify ≤ ${limit}× the floor at ${formatBytes(size)}`;
      targets.push(target(what, `${spread(verify.vsFloor, 3)}×`, verify.vsFloor.median <= limit));
    }
  };
  ratio(4 * 1024, 1.15);
  for (const size of results.settings.sizes.filter((size) => size >= 64 * 1024)) ratio(size, 1.05);
  const header = row(results, results.settings.sizes[0] ?? 0, "parseHeader");
  const parse = header?.nsPerOp;
  if (parse) targets.push(target("header parsing well under 1 µs", `${spread(parse, 0)} ns`, parse.median < 1000));
  for (const { size } of results.sizes) {
    const verify = row(results, size, "verify");
    const stripe = row(results, size, "stripe");
    if (!verify || !stripe) continue;
    const measured = `Stripe ${fixed(stripe.vsFloor.median, 2)}× floor, verify ${fixed(verify.vsFloor.median, 2)}×`;
    const met = verify.nsPerOp.median < stripe.nsPerOp.median;
    targets.push(target(`verify faster than Stripe's verifyHeader at ${formatBytes(size)}`, measured, met));
  }
  return targets;
}

/** The HTTP target, on instructions per request; the req/s ratios of the same frameworks beside it, not judged. */
function httpTargetsSection(report: RunReport): string {
  const ids = [
    ...new Set([...(report.instructions?.frameworks ?? []), ...(report.http?.frameworks ?? [])].map((f) => f.id)),
  ];
  if (ids.length === 0) return "";
  const rows = ids.map((id) => {
    const counted = report.instructions?.frameworks.find((framework) => framework.id === id);
    const timed = report.http?.frameworks.find((framework) => framework.id === id);
    const ratio = counted?.ratio;
    const reqs = (name: Comparison) => (timed?.comparisons ? `${spread(timed.comparisons[name].requests, 3)}×` : "");
    return [
      `${counted?.adapter ?? timed?.adapter} (${counted?.label ?? timed?.label})`,
      ratio ? `${fixed(ratio, 3)}×` : counted?.error ? `failed: ${counted.error.split("\n")[0]}` : "not run",
      ratio ? (ratio <= 1.05 ? "met" : "**missed**") : "n/a",
      reqs("adapterVsIdeal"),
      reqs("adapterVsIdealDedup"),
    ];
  });
  return [
    "HTTP: the adapter's user-space instructions per request under callgrind (section 4), which the machine's load does not move, against the ideal route's: target ≤ 1.05×, judged on the quietest windows (the minima, which no full garbage collection landed in). Requests per second on this shared machine spread too much between rounds to decide 5 % (section 2); they are shown beside it, not judged.",
    "",
    table("adapter | instructions ÷ ideal (target ≤ 1.05) | status | req/s ÷ ideal | req/s ÷ idealDedup", rows),
  ].join("\n");
}

function memoryTargets(results: MemoryResults | undefined): Target[] {
  return (results?.frameworks ?? []).map((framework) => {
    const adapter = framework.routes.find((route) => route.route === "adapter");
    const measured = adapter ? `${spread(adapter.heldBodyCopies, 2)} copies` : `failed: ${framework.error}`;
    return target(
      `${framework.label}: the adapter holds at most 2 copies of a body`,
      measured,
      adapter ? adapter.heldBodyCopies.max <= 2 : false,
    );
  });
}

function hostileTargets(rows: readonly HostileRow[] | undefined): Target[] {
  const what = `an unsigned request costs ≤ ${HOSTILE_TARGET}× the CPU of a plain one of its wire size`;
  return (rows ?? []).map((row) =>
    target(`${row.name}: ${what}`, `${fixed(row.ratio, 2)}×`, row.ratio <= HOSTILE_TARGET),
  );
}

function targetsSection(report: RunReport): string {
  const targets = [
    ...verifyTargets(report.verify),
    ...memoryTargets(report.memory),
    ...hostileTargets(report.hostile),
    ...queueTargets(report.queue),
  ];
  // Not "n/a": a folded run keeps an existing row's cell where the run's says "n/a", and undecided is a verdict.
  const status = (met: boolean | undefined) => (met === undefined ? "undecided" : met ? "met" : "**missed**");
  return [
    "## Targets",
    "",
    "Medians over rounds, with the min–max of the rounds in parentheses. A target is judged on the median, noisy rounds showing in the range, except where its row says otherwise: group commit is decided only when every round falls on the same side of its target (undecided otherwise).",
    "",
    table(
      "target | measured | status",
      targets.map((target) => [target.what, target.measured, status(target.met)]),
    ),
    "",
    httpTargetsSection(report),
  ].join("\n");
}

function verifySection(report: RunReport, results: VerifyResults): string {
  const { settings } = results;
  const parts = [
    "## 1. Verification throughput (tinybench, in process)",
    "",
    `Every row verifies the same signed delivery (a JSON event of exactly the given size, signed with our \`sign\`). A sample is a batch of calls (about 100 µs of floor work, so timer overhead is negligible); a *pass* runs every row back to back for ${settings.timeMs} ms each in a rotating order; a *round* keeps the median over its passes of each row's time and of its ratio to the floor **measured in the same pass**; tables show the median over rounds (min–max of the rounds). The floor is handed the \`t\` digits and the \`v1\` hex ready-made and does only this: \`\` createHmac("sha256", secret).update(\`\${t}.\`).update(body).digest() \`\`, \`Buffer.from(v1, "hex")\`, \`timingSafeEqual\`. Rounds: ${settings.rounds}; each a median over ${settings.passes} pass(es).`,
    "",
    ...chartLines(report, "verify"),
  ];
  for (const { size, rows } of results.sizes) {
    parts.push(
      `### ${formatBytes(size)}`,
      "",
      table(
        " | µs per call | calls/s | × floor | × floor + JSON.parse",
        rows.map((entry) => [
          entry.label,
          spread(entry.nsPerOp, entry.nsPerOp.median < 10_000 ? 2 : 1, 1 / 1000),
          thousands(1e9 / entry.nsPerOp.median),
          spread(entry.vsFloor, 3),
          entry.id === "constructEvent" || entry.id === "floor-parse" ? spread(entry.vsFloorParse, 3) : "",
        ]),
      ),
      "",
    );
  }
  parts.push(
    "Notes: Stripe's `verifyHeader` decodes the body to a string and signs the concatenated string (t, a dot, the decoded body), which is why its cost grows faster than the floor. `verify` keeps each secret's key bytes after the first call while the floor hands `createHmac` the secret string every time, so part of `verify`'s small margin over the floor is work the floor repeats. The `parseSignatureHeader` row cycles through 64 distinct header strings, as a server sees a new (cache-warm) string per request.",
  );
  return parts.join("\n");
}

/** One cell per comparison: its req/s or its CPU ratio, median (min–max) over rounds. */
function ratioCells(framework: FrameworkResult, names: readonly Comparison[], of: keyof ComparisonResult): string[] {
  const comparisons = framework.comparisons as Record<Comparison, ComparisonResult>;
  return names.map((name) => spread(comparisons[name][of], 3));
}

function httpSection(results: HttpResults): string {
  const { settings } = results;
  const parts = [
    "## 2. HTTP overhead per adapter (autocannon)",
    "",
    `Client (autocannon) and server in separate processes pinned to different cores, on 127.0.0.1. Every request is a distinct valid delivery (${formatBytes(settings.bodyBytes)} JSON; unique event id, timestamp within the last minute), signed before the run. Each framework serves four routes: **bare** reads the raw body and answers 200; **ideal** also verifies inline with plain node:crypto (split the header, HMAC, \`timingSafeEqual\`, time window), parses the JSON and calls the handler; **idealDedup** is the ideal route plus the least dedup by hand (each event id in a \`Map\`, in flight then done, bounded at 10,000 like the MemoryStore; no TTL, lease or token); **adapter** is the @tidings adapter with a Receiver (MemoryStore dedup on) calling the same handler. All four answer the Receiver's \`{"received":true}\` with the cheapest write the framework has. A run fails unless every answer is exactly that (no duplicates, no errors) and the handler ran once per request. A round sends ${thousands(settings.requests)} requests per route in ${settings.slices} slice(s); in each slice the four routes run one after another (rotating order), and a round's ratio is the median over its slices of the ratio within a slice, so compared routes run seconds apart. ${settings.connections} connections, ${thousands(settings.warmupRequests)} warm-up requests per route first; ${settings.rounds} round(s). Server CPU per request = the server process's \`process.cpuUsage()\` over the run / requests. Client CPU share = the client's CPU time / wall time (near 1.0 would mean the client was the limit).`,
    "",
    "### Ratios (same run, same rounds)",
    "",
    table(
      "framework | adapter | adapter ÷ ideal (req/s) | adapter ÷ idealDedup | ideal ÷ bare | ideal ÷ adapter, server CPU/req | adapter − ideal, server CPU µs/req",
      results.frameworks.map((framework) =>
        framework.error
          ? [framework.label, framework.adapter, `failed: ${framework.error.split("\n")[0]}`, "", "", "", ""]
          : [
              framework.label,
              framework.adapter,
              ...ratioCells(framework, ["adapterVsIdeal", "adapterVsIdealDedup", "idealVsBare"], "requests"),
              ...ratioCells(framework, ["adapterVsIdeal"], "cpu"),
              spread(framework.adapterExtraCpuMicros as Summary, 1),
            ],
      ),
    ),
    "",
    'Throughput on a shared 2-core machine moves with the scheduling of both processes; server CPU time per request moves much less, so the CPU column (what the req/s ratio would be with the server CPU-bound) is the steadier estimate of the same thing. Where a bare route shows a client CPU share near 0.9 (below), the client was close to its limit on that route, so its req/s, and the "÷ bare" ratios, are conservative.',
    "",
    "### Per route",
    "",
  ];
  const rows = results.frameworks.flatMap((framework) =>
    framework.routes.map((route) => [
      framework.id,
      route.route,
      spread(route.requestsPerSecond, 0),
      spread(route.latencyMeanMs, 2),
      spread(route.latencyP99Ms, 0),
      spread(route.cpuMicrosPerRequest, 1),
      spread(route.clientCpuShare, 2),
    ]),
  );
  parts.push(
    table(
      "framework | route | req/s | mean latency ms | p99 ms (whole ms) | server CPU µs/req | client CPU share",
      rows,
    ),
  );
  return parts.join("\n");
}

function memorySection(results: MemoryResults): string {
  const { settings } = results;
  const mib = (summary: Summary) => spread(summary, 2, 1 / 2 ** 20);
  const rows = results.frameworks.flatMap((framework) => {
    if (framework.error) return [[framework.id, "failed", framework.error.split("\n")[0] ?? "", "", "", "", "", ""]];
    const bare = framework.routes.find((route) => route.route === "bare");
    return framework.routes.map((route) => [
      framework.id,
      route.route,
      mib(route.peakRss),
      bare && route !== bare ? fixed(route.peakRss.median / bare.peakRss.median, 2) : "",
      mib(route.peakHeap),
      mib(route.peakArrayBuffers),
      spread(route.heldBodyCopies, 2),
      spread(route.heldHeapBodies, 2),
    ]);
  });
  return [
    `## 3. Memory with ${formatBytes(settings.bodyBytes)} deliveries`,
    "",
    `${settings.inFlight} connections send ${formatBytes(settings.bodyBytes)} signed deliveries (distinct ids) to one route of a server process${settings.freshServers ? " started fresh for each route and round" : ""}. **Peak** (per in-flight request): from an idle baseline taken after a full GC (before the process's first body${settings.freshServers ? "" : "; quick mode reuses the process, so these are not meaningful there"}), ${settings.loadRequests} requests back to back; peak RSS is the kernel's high-water mark (VmHWM, reset via /proc/self/clear_refs before the phase), heap and ArrayBuffers (where Buffers live, off the V8 heap) are sampled every 2 ms; (peak − baseline) / ${settings.inFlight}. It includes garbage not yet collected and allocator slack: it is what to provision, not what is retained. **Held**: ${settings.inFlight} requests are parked inside their handler at once (the handler keeps what a real one has: the body and the parsed event; the adapter's gets the event and the context, which holds \`rawBody\`), then full GCs run until nothing more is freed and memory is read: (ArrayBuffers held − idle) / ${settings.inFlight} / body size is the number of copies of the raw body each in-flight request keeps alive; the heap column is the parsed event (about one body's worth of JS strings) in the same unit. ${settings.rounds} round(s): median (min–max).`,
    "",
    table(
      "framework | route | peak RSS MiB / in-flight | peak RSS ÷ bare (medians) | peak heap MiB / in-flight | peak ArrayBuffers MiB / in-flight | held: raw body copies | held: heap, in bodies",
      rows,
    ),
  ].join("\n");
}

function instructionsSection(report: RunReport, results: InstructionResults): string {
  const { settings } = results;
  const thousands = (summary: Summary) => spread(summary, 1, 1 / 1000);
  return [
    "## 4. Instructions per request (callgrind)",
    "",
    `One server process per framework runs under valgrind's callgrind with V8's \`--single-threaded\` (no compiler or GC threads, whose work would land in random windows); after ${settings.warmupRequests.toLocaleString("en-US")} warm-up requests per route, callgrind starts counting and the ideal and adapter routes take turns, ${settings.windows} window(s) of ${settings.windowRequests.toLocaleString("en-US")} distinct signed 2 KiB deliveries each over 4 keep-alive connections, with callgrind's counters zeroed before and read after each window. User-space instructions only: the kernel's socket work, the same for both routes, is not counted, so these ratios overstate CPU-time ratios. Thousands of instructions per request, median (min–max) over windows. The ratio of the minima (windows no full garbage collection landed in) decides the target; the ratio of the medians includes collections.`,
    "",
    ...chartLines(report, "instructions"),
    table(
      "framework | adapter | ideal, k instr/req | adapter, k instr/req | adapter ÷ ideal (minima) | (medians)",
      results.frameworks.map((framework) =>
        framework.base && framework.ours && framework.ratio && framework.medianRatio
          ? [
              framework.label,
              framework.adapter,
              thousands(framework.base),
              thousands(framework.ours),
              fixed(framework.ratio, 3),
              fixed(framework.medianRatio, 3),
            ]
          : [framework.label, framework.adapter, `failed: ${framework.error?.split("\n")[0]}`, "", "", ""],
      ),
    ),
  ].join("\n");
}

function machineSection(report: RunReport): string {
  const { machine } = report;
  return [
    "## Machine and commands",
    "",
    table(" | ", [
      ["CPU", `${machine.cpu}, ${machine.cores} cores`],
      ["memory", `${machine.memoryGiB} GiB`],
      ["Node.js", machine.node],
      ["OS", machine.os],
      ["date", machine.date],
      ["load average (1, 5, 15 min) at start / end", `${machine.loadAverage} / ${report.loadAtEnd}`],
      [
        "core pinning",
        report.pinning === "taskset" ? "taskset: HTTP client on core 0, servers on core 1" : "none (taskset not found)",
      ],
      ["mode", report.options.quick ? "quick (`--quick`): smoke test, numbers not meaningful" : "full"],
      [
        "duration",
        Object.entries(report.seconds)
          .map(([name, seconds]) => `${name} ${fixed(seconds, 0)} s`)
          .join(", "),
      ],
    ]),
    "",
    "```sh",
    "npm run bench            # at the root: turbo run build, then the line below",
    "npm run bench --workspace @tidings/bench --   # = cd bench && node --import tsx/esm run.ts",
    "npm run bench -- --quick # CI smoke test: every benchmark once, tiny durations, fails only if one throws",
    "# options: --only=verify,http,memory,instructions,hostile,queue,schemes,secrets  --frameworks=express,fastify,...  --engines=bullmq,pg-boss  --rounds=N  --out=FILE",
    "# a run of some suites (--only) into an existing report replaces only their sections and target rows",
    "# --rerender: the sections and charts of the suites (--only, default all) drawn again from bench-charts/*.json",
    "```",
    "",
    `This report: \`${report.command}\`. The benchmarks import the built packages (\`dist\`), as users do. The machine is shared and noisy (see the load average): ratios measured in the same run are what count; absolute numbers are context.`,
  ].join("\n");
}

/** Each suite's own section, by its key in report-merge.ts: what a run of some suites replaces in a full report. */
export const SECTION_KEYS: Record<SuiteName, readonly string[]> = {
  verify: ["## 1."],
  http: ["## 2."],
  memory: ["## 3."],
  instructions: ["## 4.", "## Order", "## Transactions"],
  queue: ["## 5."],
  hostile: ["## Hostile unsigned requests"],
  schemes: ["## Schemes"],
  secrets: ["## Secrets"],
};

/** The machine table's row for a run of some suites folded into a full report. */
export function separateRunRow(report: RunReport): string {
  // A run of some schemes adds a row of its own: the full run's row stays beside it.
  const only = report.options.schemes;
  const suites = [...report.options.suites]
    .map((suite) => (suite === "schemes" && only ? `schemes (${only.join(", ")})` : suite))
    .join(", ");
  const when = `${report.machine.date}, load ${report.machine.loadAverage} / ${report.loadAtEnd}`;
  return `| ${suites}: measured in a run of its own | ${when}, ${fixed(report.seconds.total ?? 0, 0)} s: \`${report.command}\` |`;
}

export function renderReport(report: RunReport): string {
  const sections = [
    "# Benchmarks",
    "",
    "What verifying and receiving a delivery costs with @tidings, side by side with the least any verifier must do (the floor), with hand-written routes and with Stripe's verifier, all measured in the same run and reported as ratios. Generated by `bench/run.ts`; do not edit by hand. Each chart (`bench-charts/<suite>.svg`) is drawn from the results its section's tables are written from (`bench-charts/<suite>.json`); `--rerender` draws sections and charts again from those results without measuring. Why the hot path is shaped as it is: docs/performance.md.",
    "",
    machineSection(report),
    "",
  ];
  if (report.errors.length > 0) {
    sections.push("## Errors", "", ...report.errors.map((error) => `- ${error.split("\n")[0]}`), "");
  }
  sections.push(targetsSection(report), "");
  if (report.verify) sections.push(verifySection(report, report.verify), "");
  if (report.http) sections.push(httpSection(report.http), "");
  if (report.memory) sections.push(memorySection(report.memory), "");
  if (report.instructions) sections.push(instructionsSection(report, report.instructions), "");
  if (report.hostile) sections.push(renderHostile(report.hostile), "");
  if (report.queue) sections.push(renderQueue(report.queue), "", ...chartLines(report, "queue"));
  if (report.schemes) sections.push(renderSchemes(report.schemes, chartLines(report, "schemes")));
  if (report.secrets) sections.push(renderSecrets(report.secrets));
  if (report.order) sections.push(renderOrder(report.order));
  if (report.transactions) sections.push(renderTransactions(report.transactions));
  return sections.join("\n");
}
