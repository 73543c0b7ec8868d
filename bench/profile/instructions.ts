/**
 * User-space instructions per request on each route of one framework's server, counted by valgrind's callgrind:
 * the count does not move with the machine's load, so differences of 1 % between routes show, where req/s and CPU
 * time move several % from run to run on a shared VM.
 *   npm run profile:instructions --workspace @tidings/bench -- hono                  (routes: ideal,adapter)
 *   npm run profile:instructions --workspace @tidings/bench -- koa bare,ideal,adapter
 *   npm run profile:instructions --workspace @tidings/bench -- next-pages ideal,adapter --cache
 * The server runs under callgrind with V8's --single-threaded (no compiler or GC threads, whose work would land in
 * random windows), is warmed up, then the routes take turns: callgrind's counters are zeroed before and dumped after
 * each window of requests. The minimum over windows leaves out windows that caught a full GC; the median keeps them.
 * Not counted: the kernel's work (socket reads and writes, the same for every route), so instruction ratios overstate
 * CPU-time ratios; and memory stalls. `--cache` adds callgrind's cache simulation (about twice as slow) and reports
 * first-level instruction and data cache misses per request, the part of memory stalls it can count: each costs
 * an L2 access, a dozen cycles or more, so they show where a route runs slower than its instruction count says.
 * `--functions` also runs node with --perf-basic-prof, so callgrind's unnamed JIT code gets V8's function names, and
 * prints, per route after the first, the functions whose own instructions per request differ most from the first
 * route's (min windows): where a route's extra instructions go, JavaScript included.
 * Needs valgrind (Debian's `valgrind` package).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeliveryFactory } from "../http/deliveries";
import { SERVER_CPU } from "../http/fleet";
import type { RunStats } from "../http/protocol";
import { ANSWER_BODY, ROUTES, type Route } from "../http/routes";
import { Child } from "../lib/children";
import { SIGNATURE_HEADER } from "../lib/deliveries";
import { median } from "../lib/stats";
import { type Counts, dumpTotals, functionsPerRequest, jitNames } from "./callgrind";

const [id = "hono", routeList = "ideal,adapter"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const routes = routeList.split(",") as Route[];
const cacheSim = process.argv.includes("--cache");
const byFunction = process.argv.includes("--functions");
const FUNCTION_ROWS = 40;
// Fewer left some servers still tiering up (Next.js Pages counted 199k-236k per window after 3,000).
const WARMUP = 8_000;
const WINDOW = 1_000;
const WINDOWS = 5;
const CONNECTIONS = 4;

for (const route of routes) {
  if (!(route in ROUTES)) throw new Error(`routes must be among ${Object.keys(ROUTES).join(", ")}`);
}
try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
} catch {
  throw new Error("valgrind is not installed (apt-get install -y valgrind)");
}

const dumps = mkdtempSync(join(tmpdir(), "tidings-callgrind-"));
const server = new Child("http/server.ts", {
  cpu: SERVER_CPU,
  launcher: [
    "valgrind",
    "--tool=callgrind",
    "--quiet",
    `--cache-sim=${cacheSim ? "yes" : "no"}`,
    `--callgrind-out-file=${join(dumps, "callgrind.%p")}`,
  ],
  // --perf-basic-prof also starts V8's code log, which would land in the working directory.
  nodeArgs: byFunction
    ? ["--single-threaded", "--perf-basic-prof", "--no-logfile-per-isolate", `--logfile=${join(dumps, "v8.log")}`]
    : ["--single-threaded"],
  args: [id],
});
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const factory = new DeliveryFactory(2048, `instructions-${process.pid}`);

function post(port: number, path: string): Promise<void> {
  const { body, header } = factory.next();
  const headers = { "content-type": "application/json", "content-length": body.length, [SIGNATURE_HEADER]: header };
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, method: "POST", agent, headers }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        text += chunk;
      });
      answer.on("end", () =>
        text === ANSWER_BODY ? resolve() : reject(new Error(`${path}: ${answer.statusCode} ${text}`)),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** `amount` requests over CONNECTIONS keep-alive connections; checks that the route's handler saw every one. */
async function send(port: number, route: Route, amount: number): Promise<void> {
  await server.call("measure-begin");
  let left = amount;
  const connection = async () => {
    while (left-- > 0) await post(port, ROUTES[route]);
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  const stats = await server.call<RunStats>("measure-end");
  if (stats.handled[route] !== amount) throw new Error(`${route}: ${stats.handled[route]}/${amount} handled`);
}

function callgrind(command: "--zero" | "--dump"): void {
  execFileSync("callgrind_control", [command, String(server.pid)], { stdio: "ignore" });
}

/** The newest dump (callgrind.<pid>.<n>, one per --dump). */
function lastDump(): string {
  const prefix = `callgrind.${server.pid}.`;
  const parts = readdirSync(dumps)
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)));
  return readFileSync(join(dumps, `${prefix}${Math.max(...parts)}`), "utf8");
}

/** Per window: instructions (Ir) and, with --cache, first-level cache misses: I1mr, D1mr, D1mw. */
const perRequest = new Map<Route, Counts[]>(routes.map((route) => [route, []]));
/** With --functions, each window's dump, kept until the JIT names are read. */
const dumpTexts = new Map<Route, string[]>(routes.map((route) => [route, []]));
let functions: Map<Route, Map<string, number>> | undefined;

function instructions(route: Route): number[] {
  return (perRequest.get(route) ?? []).map((counts) => counts.Ir ?? 0);
}

/** The window with the fewest instructions (no full GC in it): its cache misses and functions are reported. */
function quietestWindow(route: Route): number {
  const windows = instructions(route);
  return windows.indexOf(Math.min(...windows));
}
try {
  const { port } = await server.call<{ port: number }>("start");
  for (const route of routes) await send(port, route, WARMUP);
  for (let window = 0; window < WINDOWS; window++) {
    for (const route of routes) {
      callgrind("--zero");
      await send(port, route, WINDOW);
      callgrind("--dump");
      const text = lastDump();
      if (byFunction) dumpTexts.get(route)?.push(text);
      const counts = dumpTotals(text);
      perRequest.get(route)?.push(Object.fromEntries(Object.entries(counts).map(([event, n]) => [event, n / WINDOW])));
    }
  }
  if (byFunction) functions = functionsOfQuietestWindows();
} finally {
  agent.destroy();
  await server.stop();
  rmSync(dumps, { recursive: true, force: true });
  if (byFunction) rmSync(perfMap(), { force: true });
}

function perfMap(): string {
  return `/tmp/perf-${server.pid}.map`;
}

/** Own instructions per request by function, in each route's window with the fewest instructions. */
function functionsOfQuietestWindows(): Map<Route, Map<string, number>> {
  const rename = jitNames(perfMap());
  return new Map(
    routes.map((route) => [
      route,
      functionsPerRequest(dumpTexts.get(route)?.[quietestWindow(route)] ?? "", rename, WINDOW),
    ]),
  );
}

const thousands = (value: number) => `${(value / 1000).toFixed(1)}k`;
const quietest = (route: Route) => perRequest.get(route)?.[quietestWindow(route)] ?? {};
const misses = (counts: Counts) => ({ I: counts.I1mr ?? 0, D: (counts.D1mr ?? 0) + (counts.D1mw ?? 0) });
const [first = "ideal"] = routes;
const base = instructions(first);
console.log(`${id}: user-space instructions per request, ${WINDOWS} windows of ${WINDOW} after ${WARMUP} warm-up`);
for (const route of routes) {
  const counts = instructions(route);
  const ratio =
    route === first
      ? ""
      : `; ÷ ${first}: ${(Math.min(...counts) / Math.min(...base)).toFixed(3)} (min), ${(median(counts) / median(base)).toFixed(3)} (median)`;
  console.log(
    `  ${route.padEnd(8)} min ${thousands(Math.min(...counts))}, median ${thousands(median(counts))} (${counts.map(thousands).join(" ")})${ratio}`,
  );
  if (!cacheSim) continue;
  const own = misses(quietest(route));
  const versus = misses(quietest(first));
  const relative = (kind: "I" | "D") =>
    route === first ? "" : ` (÷ ${first} ${(own[kind] / versus[kind]).toFixed(3)})`;
  console.log(
    `           L1 misses in the min window: instruction ${thousands(own.I)}${relative("I")}, data ${thousands(own.D)}${relative("D")}`,
  );
}

if (functions) {
  const base = functions.get(first) ?? new Map<string, number>();
  for (const route of routes.slice(1)) {
    const own = functions.get(route) ?? new Map<string, number>();
    console.log(`\n${route} - ${first}: own instructions per request, the ${FUNCTION_ROWS} functions that differ most`);
    const rows = [...new Set([...base.keys(), ...own.keys()])]
      .map((name) => ({ name, from: base.get(name) ?? 0, to: own.get(name) ?? 0 }))
      .sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from))
      .slice(0, FUNCTION_ROWS);
    for (const { name, from, to } of rows) {
      const cell = (value: number) => value.toFixed(0).padStart(7);
      console.log(
        `${cell(from)} ${cell(to)} ${(to - from >= 0 ? "+" : "") + (to - from).toFixed(0).padStart(6)}  ${name.slice(0, 140)}`,
      );
    }
  }
}
