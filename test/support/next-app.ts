import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");

export interface RunningNextApp {
  /** The URL `next start` printed. */
  url: string;
  /** Everything `next build` and `next start` printed so far: show it when an assertion fails. */
  output(): string;
  close(): Promise<void>;
}

/** `next build` then `next start` on a free loopback port (port 0: the OS picks), as a user would run the app. */
export async function buildAndStartNextApp(appDir: string, env: Record<string, string>): Promise<RunningNextApp> {
  let output = "";
  const next = (args: string[]): ChildProcess => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args, appDir], {
      cwd: appDir,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    return child;
  };
  await new Promise<void>((resolve, reject) => {
    const build = next(["build"]);
    build.on("error", reject);
    build.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited ${code}:\n${output}`))));
  });
  const from = output.length;
  const server = next(["start", "-p", "0", "-H", "127.0.0.1"]);
  const url = await new Promise<string>((resolve, reject) => {
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`next start exited ${code}:\n${output}`)));
    server.stdout?.on("data", () => {
      const started = output.slice(from);
      const printed = /Local:\s+(http:\/\/\S+)/.exec(started)?.[1];
      if (printed && started.includes("Ready")) resolve(printed);
    });
  });
  return {
    url,
    output: () => output,
    close: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
