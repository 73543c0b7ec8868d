/**
 * Runs the benchmarks and writes BENCHMARKS.md (full mode) or prints the report (`--quick`, for CI).
 * Exits non-zero if any benchmark threw or any framework failed, never because of a ratio: machines are noisy.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { runHostileSuite } from "./hostile/suite";
import { FRAMEWORKS } from "./http/apps";
import { runHttpSuite } from "./http/suite";
import { runInstructionsSuite } from "./instructions/suite";
import { assertBuiltPackages } from "./lib/built";
import { BENCH_DIR, PINNING } from "./lib/children";
import { currentLoad, describeMachine } from "./lib/machine";
import { parseOptions, SUITES } from "./lib/options";
import { runMemorySuite } from "./memory/suite";
import { renderOrder } from "./order/report";
import { type OrderResults, runOrderSuite } from "./order/suite";
import { ENGINE_IDS } from "./queue/engines";
import { runQueueSuite } from "./queue/suite";
import { type RunReport, renderReport, SECTION_KEYS, separateRunRow } from "./report";
import { mergeReport } from "./report-merge";
import { renderSchemes, runSchemesSuite } from "./schemes/suite";
import { runVerifySuite } from "./verify/suite";

const args = process.argv.slice(2);
const options = parseOptions(
  args,
  join(BENCH_DIR, "..", "BENCHMARKS.md"),
  FRAMEWORKS.map((framework) => framework.id),
  ENGINE_IDS,
);
const log = (line: string) => console.error(`[bench] ${line}`);

const report: RunReport = {
  machine: describeMachine(),
  loadAtEnd: "",
  pinning: PINNING,
  options,
  command: ["node --import tsx/esm run.ts", ...args].join(" "),
  seconds: {},
  errors: [],
};

async function timed<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`${name} FAILED: ${message}`);
    report.errors.push(`${name} suite: ${message}`);
    return undefined;
  } finally {
    report.seconds[name] = (performance.now() - started) / 1000;
  }
}

let order: OrderResults | undefined;
let schemes: string | undefined;
const started = performance.now();
log(`${options.quick ? "quick" : "full"} mode; suites: ${[...options.suites].join(", ")}; pinning: ${PINNING}`);
const built = await timed("packages", async () => assertBuiltPackages());
if (built) {
  if (options.suites.has("verify")) report.verify = await timed("verify", () => runVerifySuite(options.verify, log));
  if (options.suites.has("http"))
    report.http = await timed("http", () => runHttpSuite(options.http, options.frameworks, log));
  if (options.suites.has("memory"))
    report.memory = await timed("memory", () => runMemorySuite(options.memory, options.frameworks, log));
  if (options.suites.has("instructions")) {
    // Quick mode: one framework, the lightest to start under valgrind, so CI checks the code path in minutes.
    const quickOne = options.frameworks.includes("hono") ? ["hono"] : options.frameworks.slice(0, 1);
    const frameworks = options.quick ? quickOne : options.frameworks;
    report.instructions = await timed("instructions", () =>
      runInstructionsSuite(options.instructions, frameworks, log),
    );
    // What `order` costs is an instruction count too, taken with the same settings.
    order = await timed("order", () => runOrderSuite(options.instructions, log));
  }
  if (options.suites.has("hostile")) report.hostile = await timed("hostile", () => runHostileSuite(options.quick, log));
  if (options.suites.has("queue"))
    report.queue = await timed("queue", () => runQueueSuite(options.queue, options.engines, log));
  if (options.suites.has("schemes")) {
    const results = await timed("schemes", () => runSchemesSuite({ quick: options.quick }, log));
    if (results) schemes = renderSchemes(results);
  }
}
delete report.seconds.packages;
const failures = {
  http: report.http?.frameworks,
  memory: report.memory?.frameworks,
  instructions: report.instructions?.frameworks,
  queue: report.queue?.engines,
};
for (const [suite, runs] of Object.entries(failures)) {
  for (const { id, error } of runs ?? []) if (error) report.errors.push(`${suite} ${id}: ${error}`);
}
report.seconds.total = (performance.now() - started) / 1000;
report.loadAtEnd = currentLoad();

const sections = [renderReport(report), ...(order ? [renderOrder(order)] : [])];
if (schemes) {
  sections.push(
    `## Schemes: each sender's verify against its floor and its own library (instructions per verification, callgrind)\n\n${schemes}\n`,
  );
}
const markdown = sections.join("\n");
if (options.out) {
  // A run of some suites into an existing report replaces only their sections and target rows.
  const partial = options.suites.size < SUITES.length && existsSync(options.out);
  const names = [...options.suites];
  const suites = { names, keys: names.flatMap((suite) => SECTION_KEYS[suite]) };
  const merged = partial && mergeReport(readFileSync(options.out, "utf8"), markdown, suites, separateRunRow(report));
  writeFileSync(options.out, merged || markdown);
  log(`wrote ${relative(process.cwd(), options.out)}`);
} else {
  console.log(markdown);
}
log(
  `done in ${report.seconds.total.toFixed(0)} s${report.errors.length > 0 ? `, ${report.errors.length} error(s)` : ""}`,
);
process.exitCode = report.errors.length > 0 ? 1 : 0;
