import type { Child } from "../lib/children";
import type { HttpSettings } from "../lib/options";
import { median, rotate, type Summary, summarize } from "../lib/stats";
import type { Framework } from "./apps";
import { forEachFramework, type MeasuredRun, measure, type ServerHandle, withServer } from "./fleet";
import { ROUTES, type Route } from "./routes";

const ROUTE_ORDER: readonly Route[] = ["bare", "ideal", "idealDedup", "adapter"];

/** Route pairs compared within each slice: [route, the route it is measured against]. */
export const COMPARISONS = {
  adapterVsIdeal: ["adapter", "ideal"],
  /** The adapter against a hand-written route that deduplicates too. */
  adapterVsIdealDedup: ["adapter", "idealDedup"],
  idealVsBare: ["ideal", "bare"],
} as const satisfies Record<string, readonly [Route, Route]>;
export type Comparison = keyof typeof COMPARISONS;
const COMPARISON_NAMES = Object.keys(COMPARISONS) as Comparison[];

/** Per round: the median over its slices of the ratio within a slice; then median, min, max over rounds. */
export interface ComparisonResult {
  /** Route requests/s ÷ baseline requests/s. */
  requests: Summary;
  /** Baseline server CPU per request ÷ route server CPU per request: the req/s ratio of a CPU-bound server. */
  cpu: Summary;
}

export interface RouteResult {
  route: Route;
  requestsPerSecond: Summary;
  latencyMeanMs: Summary;
  latencyP99Ms: Summary;
  /** Server CPU time per request, µs. */
  cpuMicrosPerRequest: Summary;
  clientCpuShare: Summary;
}

export interface FrameworkResult {
  id: string;
  label: string;
  adapter: string;
  error?: string;
  routes: RouteResult[];
  comparisons?: Record<Comparison, ComparisonResult>;
  /** Per round: adapter CPU per request - ideal CPU per request, µs. */
  adapterExtraCpuMicros?: Summary;
}

export interface HttpResults {
  settings: HttpSettings;
  frameworks: FrameworkResult[];
}

type Log = (line: string) => void;

let runCounter = 0;

function runOf(settings: HttpSettings, framework: Framework, route: Route, amount: number) {
  return {
    path: ROUTES[route],
    connections: settings.connections,
    amount,
    bodyBytes: settings.bodyBytes,
    tag: `${framework.id}-${route}-${process.pid}-${runCounter++}`,
    source: "pool" as const,
  };
}

type RouteTotals = Omit<RouteResult, "route"> extends Record<infer K, Summary> ? Record<K, number> : never;

/** A route's runs in one round taken together: all its answers over all its run time, and so on. */
function totalOf(runs: readonly MeasuredRun[]): RouteTotals {
  const sum = (pick: (run: MeasuredRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const ok = sum((run) => run.load.ok);
  return {
    requestsPerSecond: ok / sum((run) => run.load.seconds),
    latencyMeanMs: sum((run) => run.load.latencyMeanMs * run.load.ok) / ok,
    latencyP99Ms: Math.max(...runs.map((run) => run.load.latencyP99Ms)),
    cpuMicrosPerRequest: sum((run) => run.server.cpuMicros) / ok,
    clientCpuShare: sum((run) => run.load.clientCpuShare) / runs.length,
  };
}

/** Ratios within a slice (or medians of them), by name: `<comparison>.requests`, `<comparison>.cpu`, `extraCpu`. */
type Ratios = Record<string, number>;

interface RoundResult {
  totals: Map<Route, RouteTotals>;
  /** Each the median over the round's slices of the ratio within one slice (runs seconds apart). */
  ratios: Ratios;
}

function sliceRatios(runs: Map<Route, MeasuredRun>): Ratios {
  const of = (route: Route) => runs.get(route) as MeasuredRun;
  const rps = (route: Route) => of(route).load.requestsPerSecond;
  const cpu = (route: Route) => of(route).server.cpuMicros / of(route).load.ok;
  const ratios: Ratios = { extraCpu: cpu("adapter") - cpu("ideal") };
  for (const name of COMPARISON_NAMES) {
    const [route, baseline] = COMPARISONS[name];
    ratios[`${name}.requests`] = rps(route) / rps(baseline);
    ratios[`${name}.cpu`] = cpu(baseline) / cpu(route);
  }
  return ratios;
}

const medianOfSlices = (slices: readonly Ratios[]): Ratios =>
  Object.fromEntries(Object.keys(slices[0] ?? {}).map((key) => [key, median(slices.map((slice) => slice[key] ?? 0))]));

/**
 * A round sends `requests` deliveries to each route in `slices` short runs, the routes one after another in
 * each slice (in rotating order), so a route and the one it is compared with run seconds apart. Ratios: per slice,
 * then the median over the round's slices, so a burst of load from elsewhere that hits one slice does not decide
 * the round. Requests/s of a route in a round = all its answers / all its run time.
 */
async function round(client: Child, server: ServerHandle, settings: HttpSettings, index: number): Promise<RoundResult> {
  const routeRuns = new Map<Route, MeasuredRun[]>(ROUTE_ORDER.map((route) => [route, []]));
  const slices: Ratios[] = [];
  const perSlice = Math.ceil(settings.requests / settings.slices);
  for (let slice = 0; slice < settings.slices; slice++) {
    const runs = new Map<Route, MeasuredRun>();
    for (const route of rotate(ROUTE_ORDER, index * settings.slices + slice)) {
      const run = await measure(client, server, route, runOf(settings, server.framework, route, perSlice));
      runs.set(route, run);
      routeRuns.get(route)?.push(run);
    }
    slices.push(sliceRatios(runs));
  }
  const totals = new Map(ROUTE_ORDER.map((route) => [route, totalOf(routeRuns.get(route) ?? [])]));
  return { totals, ratios: medianOfSlices(slices) };
}

function summarizeFramework(framework: Framework, rounds: RoundResult[]): FrameworkResult {
  const across = (pick: (round: RoundResult) => number) => summarize(rounds.map(pick));
  const ratio = (key: string) => across((round) => round.ratios[key] ?? Number.NaN);
  const KEYS = ["requestsPerSecond", "latencyMeanMs", "latencyP99Ms", "cpuMicrosPerRequest", "clientCpuShare"] as const;
  return {
    id: framework.id,
    label: framework.label,
    adapter: framework.adapter,
    routes: ROUTE_ORDER.map((route) => {
      const of = (key: keyof RouteTotals) => across((round) => (round.totals.get(route) as RouteTotals)[key]);
      return { route, ...Object.fromEntries(KEYS.map((key) => [key, of(key)])) } as RouteResult;
    }),
    comparisons: Object.fromEntries(
      COMPARISON_NAMES.map((name) => [name, { requests: ratio(`${name}.requests`), cpu: ratio(`${name}.cpu`) }]),
    ) as Record<Comparison, ComparisonResult>,
    adapterExtraCpuMicros: ratio("extraCpu"),
  };
}

async function benchFramework(client: Child, framework: Framework, settings: HttpSettings, log: Log) {
  return withServer(framework, async (server) => {
    for (const route of ROUTE_ORDER) {
      await measure(client, server, route, runOf(settings, framework, route, settings.warmupRequests));
    }
    const rounds: RoundResult[] = [];
    for (let index = 0; index < settings.rounds; index++) {
      const result = await round(client, server, settings, index);
      rounds.push(result);
      const describe = (route: Route) => {
        const t = result.totals.get(route) as RouteTotals;
        return `${route} ${t.requestsPerSecond.toFixed(0)}/s ${t.cpuMicrosPerRequest.toFixed(1)} µs CPU`;
      };
      log(
        `http ${framework.id} round ${index + 1}/${settings.rounds}: ${ROUTE_ORDER.map(describe).join(", ")}; adapter/ideal ${result.ratios["adapterVsIdeal.requests"]?.toFixed(3)}`,
      );
    }
    return summarizeFramework(framework, rounds);
  });
}

/**
 * Frameworks one after another (one server process at a time on the server core), each warmed up, then measured
 * for `rounds` rounds. A framework that fails is reported with its error; the others still run.
 */
export async function runHttpSuite(
  settings: HttpSettings,
  frameworkIds: readonly string[],
  log: Log,
): Promise<HttpResults> {
  const frameworks = await forEachFramework(
    "http",
    frameworkIds,
    log,
    (client, framework) => benchFramework(client, framework, settings, log),
    (framework, error): FrameworkResult => ({
      id: framework.id,
      label: framework.label,
      adapter: framework.adapter,
      error,
      routes: [],
    }),
  );
  return { settings, frameworks };
}
