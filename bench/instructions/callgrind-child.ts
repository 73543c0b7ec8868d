/**
 * A benchmark child process (lib/children.ts) under valgrind's callgrind, counting user-space instructions in
 * windows: `count()` turns instrumentation on (start-up and warm-up run several times faster without it), each
 * `window(run)` zeroes callgrind's counters, awaits `run` and dumps them. Node runs with V8's --single-threaded (no
 * compiler or GC threads, whose work would land in random windows). With `functions`, node also runs with
 * --perf-basic-prof so callgrind's unnamed JIT code gets V8's function names (`byFunction`).
 * Needs valgrind (Debian's `valgrind` package).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Child, type ChildOptions } from "../lib/children";
import { dumpTotals, functionsPerRequest, jitNames } from "./callgrind";

export function assertValgrind(): void {
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("valgrind is not installed (apt-get install -y valgrind)");
  }
}

/** What one window counted: its dump (for `byFunction`) and its instructions. */
export interface Window {
  dump: string;
  instructions: number;
}

export class CallgrindChild {
  readonly #child: Child;
  readonly #dumps: string;
  readonly #functions: boolean;

  /** `functions`: name JIT code, for `byFunction`. */
  constructor(entry: string, options: Omit<ChildOptions, "launcher">, { functions = false } = {}) {
    assertValgrind();
    this.#dumps = mkdtempSync(join(tmpdir(), "tidings-callgrind-"));
    this.#functions = functions;
    // --perf-basic-prof also starts V8's code log: kept out of the working directory.
    const profiling = ["--perf-basic-prof", "--no-logfile-per-isolate", `--logfile=${join(this.#dumps, "v8.log")}`];
    this.#child = new Child(entry, {
      ...options,
      launcher: [
        "valgrind",
        "--tool=callgrind",
        "--quiet",
        "--instr-atstart=no",
        `--callgrind-out-file=${join(this.#dumps, "callgrind.%p")}`,
      ],
      nodeArgs: ["--single-threaded", ...(functions ? profiling : []), ...(options.nodeArgs ?? [])],
    });
  }

  call<T>(command: string, input: unknown = {}): Promise<T> {
    return this.#child.call<T>(command, input);
  }

  /** Instrumentation on: call once, after the warm-up. */
  count(): void {
    this.#control("--instr=on");
  }

  async window(run: () => Promise<unknown>): Promise<Window> {
    this.#control("--zero");
    await run();
    this.#control("--dump");
    const dump = this.#lastDump();
    return { dump, instructions: dumpTotals(dump).Ir ?? 0 };
  }

  /** Own instructions per `units` (requests, jobs) by function, JavaScript named: needs `functions`. */
  byFunction(window: Window, units: number): Map<string, number> {
    if (!this.#functions) throw new Error("byFunction needs a CallgrindChild started with functions = true");
    return functionsPerRequest(window.dump, jitNames(this.#perfMap()), units);
  }

  async stop(): Promise<void> {
    await this.#child.stop();
    rmSync(this.#dumps, { recursive: true, force: true });
    if (this.#functions) rmSync(this.#perfMap(), { force: true });
  }

  #perfMap(): string {
    return `/tmp/perf-${this.#child.pid}.map`;
  }

  #control(command: "--instr=on" | "--zero" | "--dump"): void {
    execFileSync("callgrind_control", [command, String(this.#child.pid)], { stdio: "ignore" });
  }

  /** The newest dump (callgrind.<pid>.<n>, one per --dump). */
  #lastDump(): string {
    const prefix = `callgrind.${this.#child.pid}.`;
    const parts = readdirSync(this.#dumps)
      .filter((name) => name.startsWith(prefix))
      .map((name) => Number(name.slice(prefix.length)));
    return readFileSync(join(this.#dumps, `${prefix}${Math.max(...parts)}`), "utf8");
  }
}

/** The window with the fewest instructions: no full GC in it. */
export function quietestWindow(windows: readonly number[]): number {
  return windows.indexOf(Math.min(...windows));
}
