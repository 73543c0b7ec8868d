/**
 * Runs the benchmarks and writes BENCHMARKS.md with each suite's results and chart beside it (full mode), or prints
 * the report (`--quick` without `--out`, for CI). Exits non-zero if any benchmark threw or any framework failed, never
 * because of a ratio: machines are noisy.
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
import { parseOptions, SUITES, type SuiteName } from "./lib/options";
import { runMemorySuite } from "./memory/suite";
import { runOrderSuite } from "./order/suite";
import { CHARTS_FOLDER, chartsDir, readSuiteFiles, writeSuiteFiles } from "./output";
import { ENGINE_IDS } from "./queue/engines";
import { runQueueSuite } from "./queue/suite";
import { type Results, type RunReport, renderReport, SECTION_KEYS, separateRunRow } from "./report";
import { mergeReport } from "./report-merge";
import { mergeSchemeRows } from "./schemes/merge";
import { runSchemesSuite } from "./schemes/suite";
import { runSecretsSuite } from "./secrets/suite";
import { runTransactionsSuite } from "./transactions/suite";
import { runVerifySuite } from "./verify/suite";

const args = process.argv.slice(2);
const ids = FRAMEWORKS.map((framework) => framework.id);
const options = parseOptions(args, join(BENCH_DIR, "..", "BENCHMARKS.md"), ids, ENGINE_IDS);
const log = (line: string) => console.error(`[bench] ${line}`);

const report: RunReport = {
  machine: describeMachine(),
  loadAtEnd: "",
  pinning: PINNING,
  options,
  command: ["node --import tsx/esm run.ts", ...args].join(" "),
  seconds: {},
  errors: [],
  charts: options.out ? CHARTS_FOLDER : undefined,
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

// Quick mode: one framework, the lightest to start under valgrind, so CI checks the code path in minutes.
const quickOne = options.frameworks.includes("hono") ? ["hono"] : options.frameworks.slice(0, 1);
const runs: Record<SuiteName, () => Promise<Results>> = {
  verify: async () => ({ verify: await runVerifySuite(options.verify, log) }),
  http: async () => ({ http: await runHttpSuite(options.http, options.frameworks, log) }),
  memory: async () => ({ memory: await runMemorySuite(options.memory, options.frameworks, log) }),
  instructions: async () => {
    const frameworks = options.quick ? quickOne : options.frameworks;
    const instructions = await runInstructionsSuite(options.instructions, frameworks, log);
    // What `order` costs is an instruction count too, taken with the same settings.
    return {
      instructions,
      order: await timed("order", () => runOrderSuite(options.instructions, log)),
      transactions: await timed("transactions", () => runTransactionsSuite(options.instructions, log)),
    };
  },
  hostile: async () => ({ hostile: await runHostileSuite(options.quick, log) }),
  queue: async () => ({ queue: await runQueueSuite(options.queue, options.engines, log) }),
  schemes: async () => {
    const schemes = await runSchemesSuite({ quick: options.quick, only: options.schemes }, log);
    // Some schemes into a report: their rows replace theirs among the stored ones.
    const stored =
      options.schemes && options.out && readSuiteFiles(chartsDir(options.out), ["schemes"]).results.schemes;
    return { schemes: stored && options.schemes ? mergeSchemeRows(stored, schemes, options.schemes) : schemes };
  },
  secrets: async () => ({ secrets: await runSecretsSuite({ quick: options.quick }, log) }),
};

const started = performance.now();
let suites = SUITES.filter((suite) => options.suites.has(suite));
if (options.rerender) {
  if (!options.out) throw new Error("--rerender draws into a report: give --out or leave it to BENCHMARKS.md");
  const stored = readSuiteFiles(chartsDir(options.out), suites);
  Object.assign(report, stored.results);
  suites = stored.found;
  log(`drawing ${suites.join(", ") || "nothing"} from ${relative(process.cwd(), chartsDir(options.out))}`);
} else {
  log(`${options.quick ? "quick" : "full"} mode; suites: ${suites.join(", ")}; pinning: ${PINNING}`);
  if (await timed("packages", async () => assertBuiltPackages())) {
    for (const suite of suites) Object.assign(report, await timed(suite, runs[suite]));
  }
  delete report.seconds.packages;
}
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

const markdown = renderReport(report);
if (options.out) {
  // A run of some suites into an existing report replaces only their sections and target rows.
  const partial = (suites.length < SUITES.length || options.rerender) && existsSync(options.out);
  const keys = suites.flatMap((suite) => SECTION_KEYS[suite]);
  const machineRow = options.rerender ? undefined : separateRunRow(report);
  const merged =
    partial && mergeReport(readFileSync(options.out, "utf8"), markdown, { names: suites, keys }, machineRow);
  writeSuiteFiles(chartsDir(options.out), report, suites);
  writeFileSync(options.out, merged || markdown);
  log(`wrote ${relative(process.cwd(), options.out)} and ${relative(process.cwd(), chartsDir(options.out))}`);
} else {
  console.log(markdown);
}
log(
  `done in ${report.seconds.total.toFixed(0)} s${report.errors.length > 0 ? `, ${report.errors.length} error(s)` : ""}`,
);
process.exitCode = report.errors.length > 0 ? 1 : 0;
