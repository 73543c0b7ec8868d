import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The bench workspace: children start here so `--import tsx/esm` resolves from its node_modules. */
export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** `taskset` pins a child to one core, so client and server never share one; absent, children run unpinned. */
export const PINNING = hasTaskset() ? "taskset" : "none";

export interface ChildOptions {
  /** The core to pin the process to (ignored without taskset); undefined: any core. */
  cpu?: number;
  nodeArgs?: readonly string[];
  args?: readonly string[];
  /** A command that runs node for us (e.g. valgrind and its options). */
  launcher?: readonly string[];
  /** The Node binary; default: the one running the benchmarks. */
  node?: string;
  /** Added to the child's environment. */
  env?: Readonly<Record<string, string>>;
}

/** A Node child process running a TypeScript entry point, driven by request/reply messages over IPC. */
export class Child {
  readonly #process: ChildProcess;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #exited: Promise<void>;
  #nextId = 1;
  #failure: Error | undefined;

  constructor(entry: string, options: ChildOptions) {
    const node = [
      ...(options.launcher ?? []),
      options.node ?? process.execPath,
      ...(options.nodeArgs ?? []),
      "--import",
      "tsx/esm",
      entry,
      ...(options.args ?? []),
    ];
    const pinned = PINNING === "taskset" && options.cpu !== undefined;
    const [command, ...args] = pinned ? ["taskset", "-c", String(options.cpu), ...node] : node;
    this.#process = spawn(command as string, args, {
      cwd: BENCH_DIR,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.#process.on("message", (message: Reply) => this.#settle(message));
    this.#exited = new Promise((resolve) => {
      this.#process.on("exit", (code, signal) => {
        this.#fail(new Error(`${entry} ${(options.args ?? []).join(" ")} exited (${signal ?? code})`));
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** Sends `command` and resolves with the child's reply (or rejects with its error, or when it dies). */
  call<T>(command: string, input: unknown = {}): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#process.send({ id, command, input });
    });
  }

  /** Asks the child to exit; kills it if it does not within a second. */
  async stop(): Promise<void> {
    if (this.#process.exitCode !== null || this.#process.signalCode !== null) return;
    this.#process.send({ id: 0, command: "exit", input: {} });
    const timer = setTimeout(() => this.#process.kill("SIGKILL"), 1000);
    await this.#exited;
    clearTimeout(timer);
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(new Error(reply.error ?? "child failed"));
  }

  #fail(error: Error): void {
    this.#failure = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

type Handler = (input: never) => unknown;

/** The child side: answers each command with its handler's (awaited) value or error; "exit" ends the process. */
export function serveCommands(handlers: Record<string, Handler>): void {
  if (!process.send) throw new Error("this entry point runs as a child of the benchmark runner (IPC)");
  process.on("message", async (message: { id: number; command: string; input: never }) => {
    if (message.command === "exit") {
      process.disconnect?.();
      process.exit(0);
    }
    const handler = handlers[message.command];
    try {
      if (!handler) throw new Error(`unknown command ${message.command}`);
      process.send?.({ id: message.id, ok: true, value: await handler(message.input) });
    } catch (error) {
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
  // The runner went away: do not linger.
  process.on("disconnect", () => process.exit(0));
}
