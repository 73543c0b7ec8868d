/**
 * One framework's server, run as its own process pinned to its own core: the bare, ideal and adapter routes
 * (see routes.ts), plus IPC commands for the runner to read CPU time, handled counts and memory.
 */
import { createReceiver } from "@tidings/core";
import { serveCommands } from "../lib/children";
import { EVENT_TYPE, SECRET } from "../lib/deliveries";
import { HoldGate, PeakProbe } from "../memory/probe";
import { framework } from "./apps";
import type { RunStats } from "./protocol";
import type { Route, RouteHooks, RunningApp } from "./routes";

const id = process.argv[2] ?? "";
const MAX_BODY_BYTES = 1024 * 1024;
const gate = new HoldGate();
const probe = new PeakProbe();
let handled: Record<Route, number> = { bare: 0, ideal: 0, adapter: 0 };
let cpu = process.cpuUsage();
let windowFrom = 0;
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
let app: RunningApp | undefined;

const hooks: RouteHooks = {
  arrive(route, holding) {
    handled[route]++;
    return gate.arrive(holding);
  },
};

async function start(): Promise<{ port: number }> {
  const receiver = createReceiver({ secret: SECRET, maxBodyBytes: MAX_BODY_BYTES }).on(EVENT_TYPE, (event, context) =>
    hooks.arrive("adapter", { event, context }),
  );
  const startApp = await framework(id).load();
  app = await startApp({ receiver, hooks, maxBodyBytes: MAX_BODY_BYTES });
  return { port: app.port };
}

serveCommands({
  start,
  "measure-begin": () => {
    handled = { bare: 0, ideal: 0, adapter: 0 };
    cpu = process.cpuUsage();
    windowFrom = monotonicMicros();
    return {};
  },
  "measure-end": (): RunStats => {
    const used = process.cpuUsage(cpu);
    return { cpuMicros: used.user + used.system, handled, window: { from: windowFrom, to: monotonicMicros() } };
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
