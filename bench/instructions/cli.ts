/**
 * Instructions per request on routes of one framework's server (measure.ts), to decide a change to the hot path:
 *   npm run profile:instructions --workspace @tidings/bench -- hono                  (routes: ideal,adapter)
 *   npm run profile:instructions --workspace @tidings/bench -- koa bare,ideal,idealDedup,adapter
 *   npm run profile:instructions --workspace @tidings/bench -- next-pages ideal,adapter --functions
 * `--functions` runs node with --perf-basic-prof, so callgrind's unnamed JIT code gets V8's function names, and
 * prints, per route after the first, the functions whose own instructions per request differ most from the first
 * route's, in each route's quietest window: where a route's extra instructions go, JavaScript included;
 * `--rows=N` prints N of them (default 40). `--keep` leaves the callgrind dumps (and, with `--functions`, node's perf
 * map) in a folder it prints, for callgrind_annotate or a closer look at who calls what.
 */
import { ROUTES, type Route } from "../http/routes";
import { instructionSettings } from "../lib/options";
import { median } from "../lib/stats";
import { measureInstructions, quietestWindow } from "./measure";

const rowsArgument = process.argv.find((arg) => arg.startsWith("--rows="));
const FUNCTION_ROWS = rowsArgument ? Number(rowsArgument.slice("--rows=".length)) : 40;
if (!Number.isSafeInteger(FUNCTION_ROWS) || FUNCTION_ROWS < 1) throw new Error("--rows must be a positive integer");
const [id = "hono", routeList = "ideal,adapter"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const routes = routeList.split(",") as Route[];
for (const route of routes) {
  if (!(route in ROUTES)) throw new Error(`routes must be among ${Object.keys(ROUTES).join(", ")}`);
}
const settings = instructionSettings(false);
const { windows, functions, kept } = await measureInstructions(
  id,
  routes,
  settings,
  process.argv.includes("--functions"),
  process.argv.includes("--keep"),
);

const thousands = (value: number) => `${(value / 1000).toFixed(1)}k`;
const [first = "ideal"] = routes;
const base = windows.get(first) ?? [];
console.log(
  `${id}: user-space instructions per request, ${settings.windows} windows of ${settings.windowRequests} after ${settings.warmupRequests} warm-up`,
);
for (const route of routes) {
  const counts = windows.get(route) ?? [];
  const ratio =
    route === first
      ? ""
      : `; ÷ ${first}: ${(Math.min(...counts) / Math.min(...base)).toFixed(3)} (min), ${(median(counts) / median(base)).toFixed(3)} (median)`;
  console.log(
    `  ${route.padEnd(10)} min ${thousands(Math.min(...counts))}, median ${thousands(median(counts))} (${counts.map(thousands).join(" ")})${ratio}`,
  );
}

for (const route of functions ? routes.slice(1) : []) {
  const from = functions?.get(first) ?? new Map<string, number>();
  const to = functions?.get(route) ?? new Map<string, number>();
  const quiet = (name: Route) => thousands(windows.get(name)?.[quietestWindow(windows.get(name) ?? [])] ?? 0);
  console.log(`\n${route} (${quiet(route)}) - ${first} (${quiet(first)}): own instructions per request, by function`);
  const rows = [...new Set([...from.keys(), ...to.keys()])]
    .map((name) => ({ name, before: from.get(name) ?? 0, after: to.get(name) ?? 0 }))
    .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before))
    .slice(0, FUNCTION_ROWS);
  for (const { name, before, after } of rows) {
    const cell = (value: number) => value.toFixed(0).padStart(7);
    const change = after - before;
    console.log(
      `${cell(before)} ${cell(after)} ${(change >= 0 ? "+" : "") + change.toFixed(0).padStart(6)}  ${name.slice(0, 140)}`,
    );
  }
}
if (kept) console.log(`\ncallgrind dumps kept in ${kept}`);
