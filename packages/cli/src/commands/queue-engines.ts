import { isQueueAdminError, type QueueAdmin, type QueueAdminError } from "@tidings/core/dispatch";
import { CliError } from "../io";
import { loadEngine } from "../queue/load";

export interface QueueTarget {
  redis?: string;
  postgres?: string;
  queue: string;
}

interface EngineAdmin<Options> {
  openQueueAdmin(options: Options): Promise<QueueAdmin>;
}

// pg-boss 12 declares engines node >=22.12.
const PG_BOSS_NODE = [22, 12] as const;

function nodeAtLeast([major, minor]: readonly [number, number]): boolean {
  const [have = 0, haveMinor = 0] = process.versions.node.split(".").map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** The engine's error as one line for an operator: the schema errors say what this command never does. */
function operatorMessage(error: QueueAdminError): string {
  const { where, schema, found, expected, engineVersion } = error.details;
  if (error.code === "no_schema") {
    return `no pg-boss schema "${schema}" in ${where}: is it your app's database? tidings queue never creates one`;
  }
  if (error.code === "schema_version") {
    return `the "${schema}" schema in ${where} is at version ${found ?? "unknown"}, pg-boss ${engineVersion} here works with version ${expected}; tidings queue never migrates it: run it with the pg-boss version your app uses`;
  }
  return error.message;
}

function openEngine({ redis, postgres, queue }: QueueTarget): Promise<QueueAdmin> {
  if ((redis === undefined) === (postgres === undefined)) {
    throw new CliError("give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)");
  }
  if (postgres === undefined) {
    return loadEngine<EngineAdmin<{ redis: string; queue: string }>>(
      "@tidings/bullmq",
      "npm install @tidings/bullmq bullmq ioredis",
    ).then((engine) => engine.openQueueAdmin({ redis: redis as string, queue }));
  }
  if (!nodeAtLeast(PG_BOSS_NODE)) {
    throw new CliError(
      `--postgres uses pg-boss, which needs Node.js ≥ ${PG_BOSS_NODE.join(".")}; this is Node.js ${process.versions.node}`,
    );
  }
  return loadEngine<EngineAdmin<{ postgres: string; queue: string }>>(
    "@tidings/pg-boss",
    "npm install @tidings/pg-boss pg-boss",
  ).then((engine) => engine.openQueueAdmin({ postgres, queue }));
}

/** The engine's errors (unreachable, unknown queue, schema missing or of another version) as `CliError`s. */
export async function asCliError<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw isQueueAdminError(error) ? new CliError(operatorMessage(error)) : error;
  }
}

/**
 * Opens the queue named by `--redis` (BullMQ) or `--postgres` (pg-boss) through the engine package's
 * `openQueueAdmin`, which creates and migrates nothing; a queue the engine never saw is an error.
 */
export function openQueue(target: QueueTarget): Promise<QueueAdmin> {
  return asCliError(openEngine(target));
}
