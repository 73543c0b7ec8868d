import type { QueueAdmin } from "@tidings/core/dispatch";
import { CliError } from "../io";

export interface QueueTarget {
  redis?: string;
  postgres?: string;
  queue: string;
}

interface AdminModule {
  openQueueAdmin(options: { redis?: string; postgres?: string; queue: string }): QueueAdmin | Promise<QueueAdmin>;
}

// pg-boss 12 declares engines node >=22.12.
const PG_BOSS_NODE = [22, 12] as const;

function nodeAtLeast([major, minor]: readonly [number, number]): boolean {
  const [have = 0, haveMinor = 0] = process.versions.node.split(".").map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** Loads an engine package only when its option is used: the CLI depends on neither. */
async function load(specifier: string, install: string): Promise<AdminModule> {
  try {
    return (await import(/* @vite-ignore */ specifier)) as AdminModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      throw new CliError(`${specifier} or its engine is not installed here: ${install}`);
    }
    throw error;
  }
}

/** Opens the queue named by `--redis` (BullMQ) or `--postgres` (pg-boss). */
export async function openQueue({ redis, postgres, queue }: QueueTarget): Promise<QueueAdmin> {
  if ((redis === undefined) === (postgres === undefined)) {
    throw new CliError("give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)");
  }
  if (postgres === undefined) {
    const engine = await load("@tidings/bullmq", "npm install @tidings/bullmq bullmq ioredis");
    return engine.openQueueAdmin({ redis: redis as string, queue });
  }
  if (!nodeAtLeast(PG_BOSS_NODE)) {
    throw new CliError(
      `--postgres uses pg-boss, which needs Node.js ≥ ${PG_BOSS_NODE.join(".")}; this is Node.js ${process.versions.node}`,
    );
  }
  const engine = await load("@tidings/pg-boss", "npm install @tidings/pg-boss pg-boss");
  return engine.openQueueAdmin({ postgres, queue });
}
