import type { Child } from "../lib/children";
import type { HttpSettings } from "../lib/options";
import { median, type Summary, summarize } from "../lib/stats";
import type { Framework } from "./apps";
import { forEachFramework, type MeasuredRun, measure, type ServerHandle, startServer } from "./fleet";
import { ROUTES, type Route } from "./routes";

const ROUTE_ORDER: readonly Route[] = ["bare", "ideal", "adapter", "noDedup"];

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
  /** Per round: the median over its slices of adapter requests/s / ideal requests/s; then median, min, max over rounds. */
  adapterVsIdeal?: Summary;
  adapterVsBare?: Summary;
  idealVsBare?: Summary;
  /** Per round: adapter CPU per request - ideal CPU per request, µs. */
  adapterExtraCpuMicros?: Summary;
  /** Per round: ideal CPU per request / adapter CPU per request: the req/s ratio of a CPU-bound server. */
  adapterVsIdealCpu?: Summary;
  /** The adapter without dedup against the ideal route, and the adapter against itself without dedup (dedup's price). */
  noDedupVsIdeal?: Summary;
  noDedupVsIdealCpu?: Summary;
  adapterVsNoDedup?: Summary;
  adapterVsNoDedupCpu?: Summary;
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

function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
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

const RATIOS = [
  "adapterVsIdeal",
  "adapterVsBare",
  "idealVsBare",
  "idealOverAdapterCpu",
  "extraCpu",
  "noDedupVsIdeal",
  "idealOverNoDedupCpu",
  "adapterVsNoDedup",
  "noDedupOverAdapterCpu",
] as const;
type Ratios = Record<(typeof RATIOS)[number], number>;

interface RoundResult {
  totals: Map<Route, RoundTotals>;
  /** Each the median over the round's slices of the ratio within one slice (runs seconds apart). */
  ratios: Ratios;
}

function sliceRatios(runs: Map<Route, MeasuredRun>): Ratios {
  const rps = (route: Route) => (runs.get(route) as MeasuredRun).load.requestsPerSecond;
  const cpu = (route: Route) => {
    const run = runs.get(route) as MeasuredRun;
    return run.server.cpuMicros / run.load.ok;
  };
  return {
    adapterVsIdeal: rps("adapter") / rps("ideal"),
    adapterVsBare: rps("adapter") / rps("bare"),
    idealVsBare: rps("ideal") / rps("bare"),
    idealOverAdapterCpu: cpu("ideal") / cpu("adapter"),
    extraCpu: cpu("adapter") - cpu("ideal"),
    noDedupVsIdeal: rps("noDedup") / rps("ideal"),
    idealOverNoDedupCpu: cpu("ideal") / cpu("noDedup"),
    adapterVsNoDedup: rps("adapter") / rps("noDedup"),
    noDedupOverAdapterCpu: cpu("noDedup") / cpu("adapter"),
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
  const slices: Ratios[] = [];
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
  const ratios = Object.fromEntries(RATIOS.map((key) => [key, median(slices.map((ratio) => ratio[key]))])) as Ratios;
  return { totals, ratios };
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
    adapterVsIdeal: across((round) => round.ratios.adapterVsIdeal),
    adapterVsBare: across((round) => round.ratios.adapterVsBare),
    idealVsBare: across((round) => round.ratios.idealVsBare),
    adapterExtraCpuMicros: across((round) => round.ratios.extraCpu),
    adapterVsIdealCpu: across((round) => round.ratios.idealOverAdapterCpu),
    noDedupVsIdeal: across((round) => round.ratios.noDedupVsIdeal),
    noDedupVsIdealCpu: across((round) => round.ratios.idealOverNoDedupCpu),
    adapterVsNoDedup: across((round) => round.ratios.adapterVsNoDedup),
    adapterVsNoDedupCpu: across((round) => round.ratios.noDedupOverAdapterCpu),
  };
}

async function benchFramework(client: Child, framework: Framework, settings: HttpSettings, log: Log) {
  const server = await startServer(framework);
  try {
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
        `http ${framework.id} round ${index + 1}/${settings.rounds}: ${ROUTE_ORDER.map(describe).join(", ")}; adapter/ideal ${result.ratios.adapterVsIdeal.toFixed(3)}`,
      );
    }
    return summarizeFramework(framework, rounds);
  } finally {
    await server.child.call("close").catch(() => undefined);
    await server.child.stop();
  }
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
