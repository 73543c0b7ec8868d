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

interface RoundTotals {
  ok: number;
  seconds: number;
  cpuMicros: number;
  latencyMsSum: number;
  p99: number;
  clientCpu: number;
  runs: number;
}

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

function add(totals: RoundTotals | undefined, run: MeasuredRun): RoundTotals {
  const sum = totals ?? { ok: 0, seconds: 0, cpuMicros: 0, latencyMsSum: 0, p99: 0, clientCpu: 0, runs: 0 };
  return {
    ok: sum.ok + run.load.ok,
    seconds: sum.seconds + run.load.seconds,
    cpuMicros: sum.cpuMicros + run.server.cpuMicros,
    latencyMsSum: sum.latencyMsSum + run.load.latencyMeanMs * run.load.ok,
    p99: Math.max(sum.p99, run.load.latencyP99Ms),
    clientCpu: sum.clientCpu + run.load.clientCpuShare,
    runs: sum.runs + 1,
  };
}

interface SliceRatios {
  comparisons: Record<Comparison, { requests: number; cpu: number }>;
  extraCpu: number;
}

interface RoundResult {
  totals: Map<Route, RoundTotals>;
  /** Each the median over the round's slices of the ratio within one slice (runs seconds apart). */
  ratios: SliceRatios;
}

function sliceRatios(runs: Map<Route, MeasuredRun>): SliceRatios {
  const rps = (route: Route) => (runs.get(route) as MeasuredRun).load.requestsPerSecond;
  const cpu = (route: Route) => {
    const run = runs.get(route) as MeasuredRun;
    return run.server.cpuMicros / run.load.ok;
  };
  const compare = ([route, baseline]: readonly [Route, Route]) => ({
    requests: rps(route) / rps(baseline),
    cpu: cpu(baseline) / cpu(route),
  });
  return {
    comparisons: Object.fromEntries(COMPARISON_NAMES.map((name) => [name, compare(COMPARISONS[name])])) as Record<
      Comparison,
      { requests: number; cpu: number }
    >,
    extraCpu: cpu("adapter") - cpu("ideal"),
  };
}

function medianOfSlices(slices: readonly SliceRatios[]): SliceRatios {
  const over = (pick: (slice: SliceRatios) => number) => median(slices.map(pick));
  const comparisons = COMPARISON_NAMES.map((name) => [
    name,
    { requests: over((slice) => slice.comparisons[name].requests), cpu: over((slice) => slice.comparisons[name].cpu) },
  ]);
  return {
    comparisons: Object.fromEntries(comparisons) as SliceRatios["comparisons"],
    extraCpu: over((slice) => slice.extraCpu),
  };
}

/**
 * A round sends `requests` deliveries to each route in `slices` short runs, the routes one after another in
 * each slice (in rotating order), so a route and the one it is compared with run seconds apart. Ratios: per slice,
 * then the median over the round's slices, so a burst of load from elsewhere that hits one slice does not decide
 * the round. Requests/s of a route in a round = all its answers / all its run time.
 */
async function round(client: Child, server: ServerHandle, settings: HttpSettings, index: number): Promise<RoundResult> {
  const totals = new Map<Route, RoundTotals>();
  const slices: SliceRatios[] = [];
  const perSlice = Math.ceil(settings.requests / settings.slices);
  for (let slice = 0; slice < settings.slices; slice++) {
    const runs = new Map<Route, MeasuredRun>();
    for (const route of rotate(ROUTE_ORDER, index * settings.slices + slice)) {
      const run = await measure(client, server, route, runOf(settings, server.framework, route, perSlice));
      runs.set(route, run);
      totals.set(route, add(totals.get(route), run));
    }
    slices.push(sliceRatios(runs));
  }
  return { totals, ratios: medianOfSlices(slices) };
}

function summarizeFramework(framework: Framework, rounds: RoundResult[]): FrameworkResult {
  const rps = (totals: RoundTotals) => totals.ok / totals.seconds;
  const cpu = (totals: RoundTotals) => totals.cpuMicros / totals.ok;
  const of = (round: RoundResult, route: Route) => round.totals.get(route) as RoundTotals;
  const across = (pick: (round: RoundResult) => number) => summarize(rounds.map(pick));
  return {
    id: framework.id,
    label: framework.label,
    adapter: framework.adapter,
    routes: ROUTE_ORDER.map((route) => ({
      route,
      requestsPerSecond: across((round) => rps(of(round, route))),
      latencyMeanMs: across((round) => of(round, route).latencyMsSum / of(round, route).ok),
      latencyP99Ms: across((round) => of(round, route).p99),
      cpuMicrosPerRequest: across((round) => cpu(of(round, route))),
      clientCpuShare: across((round) => of(round, route).clientCpu / of(round, route).runs),
    })),
    comparisons: Object.fromEntries(
      COMPARISON_NAMES.map((name) => [
        name,
        {
          requests: across((round) => round.ratios.comparisons[name].requests),
          cpu: across((round) => round.ratios.comparisons[name].cpu),
        },
      ]),
    ) as Record<Comparison, ComparisonResult>,
    adapterExtraCpuMicros: across((round) => round.ratios.extraCpu),
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
        const t = result.totals.get(route) as RoundTotals;
        return `${route} ${(t.ok / t.seconds).toFixed(0)}/s ${(t.cpuMicros / t.ok).toFixed(1)} µs CPU`;
      };
      log(
        `http ${framework.id} round ${index + 1}/${settings.rounds}: ${ROUTE_ORDER.map(describe).join(", ")}; adapter/ideal ${result.ratios.comparisons.adapterVsIdeal.requests.toFixed(3)}`,
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
