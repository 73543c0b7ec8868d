import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

const BIN = "/usr/lib/postgresql/15/bin";

/** Runs a PostgreSQL binary as the `postgres` user when we are root: PostgreSQL refuses to run as root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

/** The server's version, e.g. `15.18`. */
export function postgresVersion(): string {
  const [command, args] = asPostgres(`${BIN}/postgres`, ["--version"]);
  return /\d+(\.\d+)*/.exec(execFileSync(command, args, { encoding: "utf8" }))?.[0] ?? "unknown";
}

/**
 * A real PostgreSQL 15 (Debian's postgresql package; .ci/run installs it) on a free loopback port, in a temporary
 * data directory, trust authentication, that tests can stop (immediate shutdown, as a crash) and start again.
 */
export class PostgresServer {
  #process: ChildProcess | undefined;
  readonly #dir: string;

  private constructor(readonly port: number) {
    this.#dir = mkdtempSync(join(tmpdir(), "tidings-postgres-"));
  }

  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PostgresServer> {
    if (!existsSync(`${BIN}/postgres`)) {
      throw new Error(`${BIN}/postgres not found (apt-get install postgresql; .ci/run installs it)`);
    }
    const server = new PostgresServer(await freePort());
    if (process.getuid?.() === 0) {
      chmodSync(server.#dir, 0o700);
      const ids = execFileSync("id", ["-u", "postgres"]).toString().trim();
      const gid = execFileSync("id", ["-g", "postgres"]).toString().trim();
      chownSync(server.#dir, Number(ids), Number(gid));
    }
    const [command, args] = asPostgres(`${BIN}/initdb`, ["-D", server.#dir, "-A", "trust", "-U", "postgres"]);
    execFileSync(command, args, { stdio: "ignore" });
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const [command, args] = asPostgres(`${BIN}/postgres`, [
      "-D",
      this.#dir,
      "-p",
      String(this.port),
      "-k",
      this.#dir,
      "-h",
      "127.0.0.1",
      "-c",
      "fsync=off",
    ]);
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.#process = child;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      child.on("error", (error) => reject(new Error(`cannot run postgres: ${error.message}`)));
      child.on("exit", (code) => reject(new Error(`postgres exited with ${code}:\n${output}`)));
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk;
        if (output.includes("ready to accept connections")) resolve();
      });
    });
  }

  /** An immediate shutdown: connections drop as in a crash (committed data survives). */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const [command, args] = asPostgres(`${BIN}/pg_ctl`, ["-D", this.#dir, "-m", "immediate", "stop"]);
    execFileSync(command, args, { stdio: "ignore" });
    await exited;
  }

  /** Stops it and deletes its data directory. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
