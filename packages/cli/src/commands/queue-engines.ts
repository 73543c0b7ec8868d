import { CliError } from "../io";
import type { AdminQueue } from "../queue/admin";
import { openBullmq } from "../queue/bullmq";
import { openPgBoss } from "../queue/pg-boss";
import { printable } from "../text/terminal";

export interface QueueTarget {
  redis?: string;
  postgres?: string;
  queue: string;
}

// pg-boss 12 declares engines node >=22.12.
const PG_BOSS_NODE = [22, 12] as const;

function nodeAtLeast([major, minor]: readonly [number, number]): boolean {
  const [have = 0, haveMinor = 0] = process.versions.node.split(".").map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

function openEngine({ redis, postgres, queue }: QueueTarget): Promise<AdminQueue> {
  if ((redis === undefined) === (postgres === undefined)) {
    throw new CliError("give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)");
  }
  if (postgres === undefined) return openBullmq(redis as string, queue);
  if (!nodeAtLeast(PG_BOSS_NODE)) {
    throw new CliError(
      `--postgres uses pg-boss, which needs Node.js ≥ ${PG_BOSS_NODE.join(".")}; this is Node.js ${process.versions.node}`,
    );
  }
  return openPgBoss(postgres, queue);
}

/** Opens the queue named by `--redis` (BullMQ) or `--postgres` (pg-boss); a queue the engine never saw is an error. */
export async function openQueue(target: QueueTarget): Promise<AdminQueue> {
  const admin = await openEngine(target);
  try {
    if (!(await admin.exists())) {
      const names = await admin.queueNames();
      const known = names.length === 0 ? "it has none" : `its queues: ${names.map(printable).join(", ")}`;
      throw new CliError(`no queue named ${printable(target.queue)} in this ${admin.engine} (${known})`);
    }
    return admin;
  } catch (error) {
    await admin.close();
    throw error;
  }
}
