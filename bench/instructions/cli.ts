/**
 * Instructions per request on routes of one framework's server (measure.ts), to decide a change to the hot path:
 *   npm run profile:instructions --workspace @tidings/bench -- hono                  (routes: ideal,adapter)
 *   npm run profile:instructions --workspace @tidings/bench -- koa bare,ideal,idealDedup,adapter
 *   npm run profile:instructions --workspace @tidings/bench -- next-pages ideal,adapter --functions
 * `--functions` runs node with --perf-basic-prof, so callgrind's unnamed JIT code gets V8's function names, and
 * prints, per route after the first, the functions whose own instructions per request differ most from the first
 * route's, in each route's quietest window: where a route's extra instructions go, JavaScript included.
 */
import { ROUTES, type Route } from "../http/routes";
import { instructionSettings } from "../lib/options";
import { measureInstructions } from "./measure";
import { printCounted } from "./print";

const [id = "hono", routeList = "ideal,adapter"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const routes = routeList.split(",") as Route[];
for (const route of routes) {
  if (!(route in ROUTES)) throw new Error(`routes must be among ${Object.keys(ROUTES).join(", ")}`);
}
const settings = instructionSettings(false);
const counted = await measureInstructions(id, routes, settings, process.argv.includes("--functions"));
const windows = `${settings.windows} windows of ${settings.windowRequests} after ${settings.warmupRequests} warm-up`;
printCounted(`${id}, ${windows}`, "request", counted);
