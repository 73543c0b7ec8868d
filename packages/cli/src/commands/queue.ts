import type { FailedDelivery, QueueAdmin, QueueCounts } from "@tidings/core/dispatch";
import { type Command, Option } from "commander";
import { CliError, type Io } from "../io";
import { integer, nonEmpty } from "./parsers";
import { openQueue, type QueueTarget } from "./queue-engines";

const HELP_AFTER = [
  "",
  "Examples:",
  "  tidings queue failed --redis redis://127.0.0.1:6379 --queue deliveries",
  "  tidings queue retry --all --postgres postgres://app@db/app --queue deliveries",
  "  tidings queue stats --redis redis://127.0.0.1:6379 --queue deliveries",
].join("\n");

function withTarget(command: Command): Command {
  return command
    .option("--redis <url>", "a BullMQ queue on this Redis (needs @tidings/bullmq)")
    .option("--postgres <url>", "a pg-boss queue in this PostgreSQL database (needs @tidings/pg-boss, Node ≥ 22.12)")
    .addOption(new Option("-q, --queue <name>", "queue name").makeOptionMandatory().argParser(nonEmpty));
}

async function withQueue(target: QueueTarget, use: (admin: QueueAdmin) => Promise<void>): Promise<void> {
  const admin = await openQueue(target);
  try {
    await use(admin);
  } finally {
    await admin.close();
  }
}

function failedTable(jobs: readonly FailedDelivery[]): string {
  const rows = [
    ["id", "type", "attempts", "last error"],
    ...jobs.map((job) => [job.id, job.type, String(job.attempts), job.error]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function countsLines(counts: QueueCounts): string {
  return Object.entries(counts)
    .map(([state, count]) => `${state.padEnd(9)} ${count}`)
    .join("\n");
}

export function registerQueue(program: Command, io: Io): void {
  const queue = program
    .command("queue")
    .description("Inspect and re-run a BullMQ or pg-boss queue of deliveries: failed jobs, retries, counts.")
    .addHelpText("after", HELP_AFTER);

  withTarget(queue.command("failed").description("List deliveries whose jobs used up their attempts."))
    .option("-n, --limit <count>", "list at most this many", integer(1), 100)
    .action(async (options: QueueTarget & { limit: number }) => {
      await withQueue(options, async (admin) => {
        const jobs = await admin.failed(options.limit);
        io.stdout.write(jobs.length === 0 ? `no failed jobs in ${options.queue}\n` : `${failedTable(jobs)}\n`);
      });
    });

  withTarget(queue.command("retry").description("Re-run failed jobs: these ids, or --all."))
    .argument("[ids...]", "job ids, as `tidings queue failed` lists them")
    .option("--all", "every failed job")
    .action(async (ids: string[], options: QueueTarget & { all?: boolean }) => {
      if (ids.length > 0 === Boolean(options.all)) throw new CliError("give job ids or --all");
      await withQueue(options, async (admin) => {
        const moved = await admin.retry(options.all ? "all" : ids);
        const missed = options.all ? "" : ` (${ids.length - moved} not found or not failed)`;
        io.stdout.write(`${moved} job(s) back in ${options.queue}${moved < ids.length ? missed : ""}\n`);
      });
    });

  withTarget(queue.command("stats").description("Count the queue's jobs: waiting, active, completed, failed.")).action(
    async (options: QueueTarget) => {
      await withQueue(options, async (admin) => {
        io.stdout.write(`${countsLines(await admin.stats())}\n`);
      });
    },
  );
}
