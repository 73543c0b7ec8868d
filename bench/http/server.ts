/**
 * One framework's server, run as its own process pinned to its own core: every route in routes.ts, plus IPC
 * commands for the runner to read CPU time, handled counts and memory.
 */
import { createReceiver, MemoryStore, type Receiver, type SecretResolver } from "@tidings/core";
import { serveCommands } from "../lib/children";
import { EVENT_TYPE, SECRET } from "../lib/deliveries";
import { HoldGate, PeakProbe } from "../memory/probe";
import { framework } from "./apps";
import type { RunStats } from "./protocol";
import { asyncResolver, syncResolver } from "./resolver-routes";
import { ADAPTER_ROUTES, type AdapterRoute, ROUTES, type Route, type RouteHooks, type RunningApp } from "./routes";
import { instrumentRoute } from "./telemetry";

const id = process.argv[2] ?? "";
const MAX_BODY_BYTES = 1024 * 1024;
const gate = new HoldGate();
const probe = new PeakProbe();
const noneHandled = () => Object.fromEntries(Object.keys(ROUTES).map((route) => [route, 0])) as Record<Route, number>;
let handled = noneHandled();
let cpu = process.cpuUsage();
let app: RunningApp | undefined;

const hooks: RouteHooks = {
  arrive(route, holding) {
    handled[route]++;
    return gate.arrive(holding);
  },
};

/** The routes whose Receiver looks its secret up per request; every other adapter route has the fixed one. */
const RESOLVERS: Partial<Record<AdapterRoute, SecretResolver>> = {
  resolverSync: syncResolver,
  resolverAsync: asyncResolver,
};

/**
 * A full HTTP run sends one route over 200,000 distinct deliveries within the store's 5-minute retention, and the
 * default 100,000 keys would then answer 503: sized as an app taking that many deliveries would size it.
 */
const STORE_ENTRIES = 500_000;

/** The Receiver as an app makes it, with a MemoryStore for dedup. */
function receiverFor(route: AdapterRoute) {
  const receiver = createReceiver({
    secret: RESOLVERS[route] ?? SECRET,
    maxBodyBytes: MAX_BODY_BYTES,
    store: new MemoryStore({ maxEntries: STORE_ENTRIES }),
  }).on(EVENT_TYPE, (event, context) => hooks.arrive(route, { event, context }));
  instrumentRoute(route, receiver);
  return receiver;
}

async function start(): Promise<{ port: number }> {
  const receivers = Object.fromEntries(ADAPTER_ROUTES.map((route) => [route, receiverFor(route)])) as Record<
    AdapterRoute,
    Receiver
  >;
  const startApp = await framework(id).load();
  app = await startApp({ receivers, hooks, maxBodyBytes: MAX_BODY_BYTES });
  return { port: app.port };
}

serveCommands({
  start,
  "measure-begin": () => {
    handled = noneHandled();
    cpu = process.cpuUsage();
    return {};
  },
  "measure-end": (): RunStats => {
    const used = process.cpuUsage(cpu);
    return { cpuMicros: used.user + used.system, handled };
  },
  "peak-begin": () => probe.begin(),
  "peak-end": () => probe.end(),
  "hold-arm": async ({ target }: { target: number }) => {
    await gate.arm(target);
    return {};
  },
  "hold-result": () => gate.result(),
  close: async () => {
    await app?.close();
    return {};
  },
});
