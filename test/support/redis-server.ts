import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

/** Starts `redis-server` with these arguments; resolves once it accepts connections. */
export async function spawnRedisServer(args: string[]): Promise<ChildProcess> {
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.on("error", (error) =>
      reject(
        new Error(`cannot run redis-server (apt-get install redis-server; .ci/run installs it): ${error.message}`),
      ),
    );
    child.on("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
  });
  return child;
}

/**
 * A real redis-server on a free loopback port that tests can stop and start again. It persists to an
 * append-only file in a temporary directory, as a production Redis would, so a restart keeps its keys.
 */
export class RedisServer {
  #process: ChildProcess | undefined;
  readonly #dir = mkdtempSync(join(tmpdir(), "tidings-redis-"));

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.#dir, "--save", ""];
    this.#process = await spawnRedisServer([...args, "--appendonly", "yes", "--appendfsync", "always"]);
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }

  /** Stops it and deletes its directory. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
