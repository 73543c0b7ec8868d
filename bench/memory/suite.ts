import type { Framework } from "../http/apps";
import { forEachFramework, measure, type ServerHandle, withServer } from "../http/fleet";
import { ROUTES, type Route } from "../http/routes";
import type { Child } from "../lib/children";
import type { MemorySettings } from "../lib/options";
import { type Summary, summarize } from "../lib/stats";
import type { HeldReading, PeakReading } from "./probe";

const ROUTE_ORDER: readonly Route[] = ["bare", "ideal", "adapter"];
const HOLD_TIMEOUT_MS = 120_000;

export interface MemoryRouteResult {
  route: Route;
  /** Bytes per in-flight request: (peak - idle baseline) / in-flight, during the peak phase. */
  peakRss: Summary;
  peakHeap: Summary;
  peakArrayBuffers: Summary;
  /** Bytes each parked request keeps live after a full GC, in units of the body size. */
  heldBodyCopies: Summary;
  heldHeapBodies: Summary;
  rssSource: PeakReading["rssSource"];
}

export interface MemoryFrameworkResult {
  id: string;
  label: string;
  error?: string;
  routes: MemoryRouteResult[];
}

export interface MemoryResults {
  settings: MemorySettings;
  frameworks: MemoryFrameworkResult[];
}

type Log = (line: string) => void;
let runCounter = 0;

function loadRun(settings: MemorySettings, framework: Framework, route: Route, amount: number, connections: number) {
  return {
    path: ROUTES[route],
    connections,
    amount,
    bodyBytes: settings.bodyBytes,
    tag: `mem-${framework.id}-${route}-${process.pid}-${runCounter++}`,
    source: "on-demand" as const,
  };
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out`)), HOLD_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Round {
  peak: PeakReading;
  held: HeldReading;
}

/**
 * Peak phase: from an idle baseline (after a GC; the first request of the process in full mode), `inFlight`
 * connections send 1 MiB deliveries back to back. Then one batch of `inFlight` is held in the handler and counted.
 */
async function round(client: Child, server: ServerHandle, settings: MemorySettings, route: Route): Promise<Round> {
  const { framework } = server;
  await server.child.call("peak-begin");
  await measure(client, server, route, loadRun(settings, framework, route, settings.loadRequests, settings.inFlight));
  const peak = await server.child.call<PeakReading>("peak-end");
  await server.child.call("hold-arm", { target: settings.inFlight });
  const [held] = await Promise.all([
    withTimeout(server.child.call<HeldReading>("hold-result"), `${framework.id} ${route} hold`),
    measure(client, server, route, loadRun(settings, framework, route, settings.inFlight, settings.inFlight)),
  ]);
  return { peak, held };
}

function summarizeRoute(route: Route, rounds: readonly Round[], settings: MemorySettings): MemoryRouteResult {
  const perRequest = (pick: (round: Round) => number) => summarize(rounds.map(pick));
  const inFlight = settings.inFlight;
  return {
    route,
    peakRss: perRequest(({ peak }) => (peak.peak.rss - peak.baseline.rss) / inFlight),
    peakHeap: perRequest(({ peak }) => (peak.peak.heapUsed - peak.baseline.heapUsed) / inFlight),
    peakArrayBuffers: perRequest(({ peak }) => (peak.peak.arrayBuffers - peak.baseline.arrayBuffers) / inFlight),
    heldBodyCopies: perRequest(
      ({ held }) => (held.held.arrayBuffers - held.idle.arrayBuffers) / held.count / settings.bodyBytes,
    ),
    heldHeapBodies: perRequest(
      ({ held }) => (held.held.heapUsed - held.idle.heapUsed) / held.count / settings.bodyBytes,
    ),
    rssSource: rounds[0]?.peak.rssSource ?? "sampled",
  };
}

function logRoute(log: Log, framework: Framework, result: MemoryRouteResult): void {
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
  log(
    `memory ${framework.id} ${result.route}: peak RSS ${mib(result.peakRss.median)} MiB/in-flight, held ${result.heldBodyCopies.median.toFixed(2)} body copies + ${result.heldHeapBodies.median.toFixed(2)} on the heap`,
  );
}

async function benchFramework(client: Child, framework: Framework, settings: MemorySettings, log: Log) {
  const rounds = new Map<Route, Round[]>(ROUTE_ORDER.map((route) => [route, []]));
  for (let index = 0; index < settings.rounds; index++) {
    if (settings.freshServers) {
      for (const route of ROUTE_ORDER) {
        const result = await withServer(framework, (server) => round(client, server, settings, route));
        rounds.get(route)?.push(result);
      }
    } else {
      await withServer(framework, async (server) => {
        for (const route of ROUTE_ORDER) rounds.get(route)?.push(await round(client, server, settings, route));
      });
    }
  }
  const routes = ROUTE_ORDER.map((route) => summarizeRoute(route, rounds.get(route) ?? [], settings));
  for (const result of routes) logRoute(log, framework, result);
  return { id: framework.id, label: framework.label, routes };
}

/** Every framework's routes under 1 MiB deliveries; a framework that fails is reported, the others run. */
export async function runMemorySuite(
  settings: MemorySettings,
  frameworkIds: readonly string[],
  log: Log,
): Promise<MemoryResults> {
  const frameworks = await forEachFramework(
    "memory",
    frameworkIds,
    log,
    (client, framework) => benchFramework(client, framework, settings, log),
    (framework, error): MemoryFrameworkResult => ({ id: framework.id, label: framework.label, error, routes: [] }),
  );
  return { settings, frameworks };
}
