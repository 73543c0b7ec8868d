/**
 * User-space instructions per request on routes of one framework's server, counted by valgrind's callgrind: the
 * count does not move with the machine's load, so a 1 % difference between routes shows, where req/s and CPU time
 * move several % from run to run on a shared VM. The server runs under callgrind with V8's --single-threaded (no
 * compiler or GC threads, whose work would land in random windows), is warmed up, then the routes take turns:
 * callgrind's counters are zeroed before and dumped after each window of requests. Not counted: the kernel's work
 * (socket reads and writes, the same for every route), so instruction ratios overstate CPU-time ratios.
 * Needs valgrind (Debian's `valgrind` package).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeliveryFactory } from "../http/deliveries";
import { SERVER_CPU } from "../http/fleet";
import type { RunStats } from "../http/protocol";
import { ANSWER_BODY, ROUTES, type Route } from "../http/routes";
import { Child } from "../lib/children";
import { SIGNATURE_HEADER } from "../lib/deliveries";
import type { InstructionSettings } from "../lib/options";
import { dumpTotals, functionsPerRequest, jitNames } from "./callgrind";

const CONNECTIONS = 4;

export interface Measured {
  /** Instructions per request in each window, by route. */
  windows: Map<Route, number[]>;
  /** With `functions`: own instructions per request by function name, in each route's window with the fewest. */
  functions?: Map<Route, Map<string, number>>;
  /** With `keep`: the folder left with every window's dump (callgrind.<pid>.<n>, routes in turn) and perf map. */
  kept?: string | undefined;
}

export function assertValgrind(): void {
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("valgrind is not installed (apt-get install -y valgrind)");
  }
}

/** The window with the fewest instructions: no full GC in it. */
export function quietestWindow(windows: readonly number[]): number {
  return windows.indexOf(Math.min(...windows));
}

export async function measureInstructions(
  frameworkId: string,
  routes: readonly Route[],
  settings: InstructionSettings,
  functions = false,
  keep = false,
): Promise<Measured> {
  assertValgrind();
  const dumps = mkdtempSync(join(tmpdir(), "tidings-callgrind-"));
  const server = new Child("http/server.ts", {
    cpu: SERVER_CPU,
    // Instrumentation starts after the warm-up (start-up and warm-up run several times faster without it).
    launcher: [
      "valgrind",
      "--tool=callgrind",
      "--quiet",
      "--instr-atstart=no",
      `--callgrind-out-file=${join(dumps, "callgrind.%p")}`,
    ],
    // --perf-basic-prof names JIT code for callgrind; it also starts V8's code log, kept out of the working directory.
    nodeArgs: functions
      ? ["--single-threaded", "--perf-basic-prof", "--no-logfile-per-isolate", `--logfile=${join(dumps, "v8.log")}`]
      : ["--single-threaded"],
    args: [frameworkId],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const factory = new DeliveryFactory(2048, `instructions-${process.pid}`);
  const windows = new Map<Route, number[]>(routes.map((route) => [route, []]));
  const dumpTexts = new Map<Route, string[]>(routes.map((route) => [route, []]));

  const post = (port: number, path: string) =>
    new Promise<void>((resolve, reject) => {
      const { body, header } = factory.next();
      const headers = { "content-type": "application/json", "content-length": body.length, [SIGNATURE_HEADER]: header };
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

  /** `amount` requests over CONNECTIONS keep-alive connections; checks that the route's handler saw every one. */
  const send = async (port: number, route: Route, amount: number) => {
    await server.call("measure-begin");
    let left = amount;
    const connection = async () => {
      while (left-- > 0) await post(port, ROUTES[route]);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
    const stats = await server.call<RunStats>("measure-end");
    if (stats.handled[route] !== amount) throw new Error(`${route}: ${stats.handled[route]}/${amount} handled`);
  };

  const callgrind = (command: "--instr=on" | "--zero" | "--dump") =>
    execFileSync("callgrind_control", [command, String(server.pid)], { stdio: "ignore" });

  /** The newest dump (callgrind.<pid>.<n>, one per --dump). */
  const lastDump = () => {
    const prefix = `callgrind.${server.pid}.`;
    const parts = readdirSync(dumps)
      .filter((name) => name.startsWith(prefix))
      .map((name) => Number(name.slice(prefix.length)));
    return readFileSync(join(dumps, `${prefix}${Math.max(...parts)}`), "utf8");
  };

  try {
    const { port } = await server.call<{ port: number }>("start");
    for (const route of routes) await send(port, route, settings.warmupRequests);
    callgrind("--instr=on");
    for (let window = 0; window < settings.windows; window++) {
      for (const route of routes) {
        callgrind("--zero");
        await send(port, route, settings.windowRequests);
        callgrind("--dump");
        const text = lastDump();
        if (functions) dumpTexts.get(route)?.push(text);
        windows.get(route)?.push((dumpTotals(text).Ir ?? 0) / settings.windowRequests);
      }
    }
    const kept = keep ? dumps : undefined;
    if (!functions) return { windows, kept };
    const rename = jitNames(`/tmp/perf-${server.pid}.map`);
    const byFunction = (route: Route) => {
      const quietest = quietestWindow(windows.get(route) ?? []);
      return functionsPerRequest(dumpTexts.get(route)?.[quietest] ?? "", rename, settings.windowRequests);
    };
    return { windows, kept, functions: new Map(routes.map((route) => [route, byFunction(route)])) };
  } finally {
    agent.destroy();
    await server.stop();
    if (keep && functions) copyFileSync(`/tmp/perf-${server.pid}.map`, join(dumps, "perf.map"));
    if (!keep) rmSync(dumps, { recursive: true, force: true });
    if (functions) rmSync(`/tmp/perf-${server.pid}.map`, { force: true });
  }
}
