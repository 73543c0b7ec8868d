import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { capped } from "./wait";

export interface ChildServer {
  /** Everything the process printed so far, stdout and stderr: show it when an assertion fails. */
  output(): string;
  /** Resolves once the process has printed `text` (at once if it has); fails with its output after the cap. */
  printed(text: string): Promise<void>;
  close(): Promise<void>;
}

interface Options {
  cwd: string;
  env?: Record<string, string | undefined>;
}

function collecting(child: ChildProcess, onOutput: (output: string) => void): () => string {
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput(output);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  return () => output;
}

/** Runs a command to its end; rejects with everything it printed if it fails. */
export function runToEnd(command: string, args: string[], { cwd, env }: Options): Promise<string> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
  const output = collecting(child, () => {});
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(output()) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output()}`)),
    );
  });
}

/** Starts a server process and resolves once its output satisfies `ready`; fails with its output otherwise. */
export async function startServer(
  command: string,
  args: string[],
  { cwd, env, ready, timeoutMs = 90_000 }: Options & { ready: (output: string) => boolean; timeoutMs?: number },
): Promise<ChildServer> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
  let started: () => void = () => {};
  const awaiting = new Set<() => void>();
  const output = collecting(child, (printed) => {
    if (ready(printed)) started();
    for (const ask of [...awaiting]) ask();
  });
  const printed = (text: string) =>
    capped(
      new Promise<void>((resolve) => {
        const ask = () => {
          if (!output().includes(text)) return;
          awaiting.delete(ask);
          resolve();
        };
        awaiting.add(ask);
        ask();
      }),
      () => `${command} to print ${JSON.stringify(text)}:\n${output()}`,
    );
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  try {
    const starting = new Promise<void>((resolve, reject) => {
      started = resolve;
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`${command} exited ${code}:\n${output()}`)));
    });
    starting.catch(() => {}); // an exit after a give-up is told by the give-up
    await capped(starting, () => `${command} to start:\n${output()}`, { withinMs: timeoutMs });
  } catch (error) {
    await close();
    throw error;
  }
  return { output, printed, close };
}
