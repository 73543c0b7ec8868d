import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeBinaries, nodeBinary } from "../../../test/runtimes/lib/node-binaries.mjs";
import { PostgresServer, postgresVersion } from "../../../test/support/postgres-server";
import { RedisServer } from "../../../test/support/redis-server";
import { BENCH_DIR } from "../../lib/children";
import type { EngineId } from "./engine";

/** A running engine server, and the environment its clients connect with (engines/*.ts read it). */
export interface Backend {
  env: Record<string, string>;
  remove(): Promise<void>;
}

export interface EngineSpec {
  id: EngineId;
  /** The engine, its server and the Node version its processes run on. */
  label(): string;
  /** The Node binary of the engine's processes. */
  node(): string;
  start(): Promise<Backend>;
}

function packageVersion(name: string): string {
  const manifest = join(BENCH_DIR, "..", "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

function redisVersion(): string {
  return /v=(\S+)/.exec(execFileSync("redis-server", ["--version"], { encoding: "utf8" }))?.[1] ?? "unknown";
}

/** pg-boss 12 needs Node ≥ 22.12: its processes run on the project's Node 24 (test/runtimes/node-versions). */
function node24(): string {
  ensureNodeBinaries();
  return nodeBinary("node24");
}

export const ENGINES: readonly EngineSpec[] = [
  {
    id: "bullmq",
    label: () => `BullMQ ${packageVersion("bullmq")}, Redis ${redisVersion()}, Node ${process.versions.node}`,
    node: () => process.execPath,
    async start() {
      const redis = await RedisServer.start();
      return { env: { REDIS_PORT: String(redis.port) }, remove: () => redis.remove() };
    },
  },
  {
    id: "pg-boss",
    label: () => {
      const node = execFileSync(node24(), ["-v"], { encoding: "utf8" }).trim().slice(1);
      return `pg-boss ${packageVersion("pg-boss")}, PostgreSQL ${postgresVersion()}, Node ${node}`;
    },
    node: node24,
    async start() {
      const postgres = await PostgresServer.start();
      return { env: { POSTGRES_URL: postgres.url }, remove: () => postgres.remove() };
    },
  },
];

export const ENGINE_IDS = ENGINES.map((engine) => engine.id);
