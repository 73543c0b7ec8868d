import type { FailedDelivery, FoundJob, QueueAdmin, QueueCounts } from "@tidings/core/dispatch";
import { type Command, Option } from "commander";
import { CliError, CliExit, type Io } from "../io";
import { printable, printableJson } from "../text/terminal";
import { integer, nonEmpty } from "./parsers";
import { asCliError, openQueue, type QueueTarget } from "./queue-engines";

const HELP_AFTER = [
  "",
  "Examples:",
  "  tidings queue failed --redis redis://127.0.0.1:6379 --queue deliveries",
  "  tidings queue retry --all --postgres postgres://app@db/app --queue deliveries",
  "  tidings queue stats --redis redis://127.0.0.1:6379 --queue deliveries",
  "",
  "These commands never create or migrate anything: a queue, a pg-boss schema of another version or no schema at all",
  "is an error. Text from the queue (ids, types, errors) is printed with control characters escaped (\\x1b).",
].join("\n");

const RETRY_HELP = [
  "",
  "An id is a job id as `tidings queue failed` lists it, or the delivery key as logs and ctx.deliveryKey show it",
  "(event:evt_…). Exit code 1 when one of them is not a failed job of the queue.",
  "",
  "A retried BullMQ job gets a fresh set of attempts; a retried pg-boss job gets one more run (pg-boss raises its",
  "retry limit by one), so a pg-boss job that fails again is back in the failed list at once.",
].join("\n");

interface JsonOption {
  json?: boolean;
}

function withTarget(command: Command): Command {
  return command
    .option("--redis <url>", "a BullMQ queue on this Redis (needs @tidings/bullmq)")
    .option("--postgres <url>", "a pg-boss queue in this PostgreSQL database (needs @tidings/pg-boss, Node ≥ 22.12)")
    .addOption(new Option("-q, --queue <name>", "queue name").makeOptionMandatory().argParser(nonEmpty));
}

async function withQueue<T>(target: QueueTarget, use: (admin: QueueAdmin) => Promise<T>): Promise<T> {
  const admin = await openQueue(target);
  try {
    return await asCliError(use(admin));
  } finally {
    await admin.close();
  }
}

function table(rows: readonly (readonly string[])[]): string {
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns - 1 }, (_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? "").length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function failedTable(jobs: readonly FailedDelivery[]): string {
  return table([
    ["id", "type", "attempts", "last error"],
    ...jobs.map((job) => [job.id, job.type, String(job.attempts), job.error].map(printable)),
  ]);
}

/** The states in the order printed; an engine's counts hold those it has. */
const STATES = ["waiting", "prioritized", "delayed", "active", "completed", "failed", "cancelled"] as const;

/** The engine's states with their counts, in the printed order. */
function counted(counts: QueueCounts): [string, number][] {
  return STATES.flatMap((state) => (counts[state] === undefined ? [] : [[state, counts[state]] as [string, number]]));
}

function statsTable(counts: QueueCounts): string {
  return table(counted(counts).map(([state, count]) => [state, String(count)]));
}

interface RetryPlan {
  jobIds: string[];
  problems: string[];
}

/** Each id given: a failed job (by job id or delivery key) to retry, or why not. */
async function planRetry(admin: QueueAdmin, ids: readonly string[], queue: string): Promise<RetryPlan> {
  const plan: RetryPlan = { jobIds: [], problems: [] };
  for (const id of new Set(ids)) {
    const found: FoundJob | undefined = await admin.find(id);
    if (!found) plan.problems.push(`${printable(id)}: no such job or delivery key in ${printable(queue)}`);
    else if (found.state !== "failed") plan.problems.push(`${printable(id)}: not failed (${printable(found.state)})`);
    else if (!plan.jobIds.includes(found.jobId)) plan.jobIds.push(found.jobId);
  }
  return plan;
}

export function registerQueue(program: Command, io: Io): void {
  const queue = program
    .command("queue")
    .description("Inspect and re-run a BullMQ or pg-boss queue of deliveries: failed jobs, retries, counts.")
    .addHelpText("after", HELP_AFTER);

  withTarget(queue.command("failed").description("List deliveries whose jobs used up their attempts."))
    .option("-n, --limit <count>", "list at most this many", integer(1), 100)
    .option("--json", "print the jobs as JSON: [{ id, type, deliveryKey, attempts, error, failedAt }]")
    .action(async (options: QueueTarget & JsonOption & { limit: number }) => {
      const jobs = await withQueue(options, (admin) => admin.failed(options.limit));
      if (options.json) io.stdout.write(`${printableJson(jobs)}\n`);
      else
        io.stdout.write(
          jobs.length === 0 ? `no failed jobs in ${printable(options.queue)}\n` : `${failedTable(jobs)}\n`,
        );
    });

  withTarget(queue.command("retry").description("Re-run failed jobs: these job ids or delivery keys, or --all."))
    .argument("[ids...]", "job ids as `tidings queue failed` lists them, or delivery keys (event:evt_…)")
    .option("--all", "every failed job")
    .addHelpText("after", RETRY_HELP)
    .action(async (ids: string[], options: QueueTarget & { all?: boolean }) => {
      if (ids.length > 0 === Boolean(options.all)) throw new CliError("give job ids or --all");
      const { moved, problems } = await withQueue(options, async (admin) => {
        if (options.all) return { moved: await admin.retry("all"), problems: [] };
        const plan = await planRetry(admin, ids, options.queue);
        return { moved: plan.jobIds.length > 0 ? await admin.retry(plan.jobIds) : 0, problems: plan.problems };
      });
      io.stdout.write(`${moved} job(s) back in ${printable(options.queue)}\n`);
      if (problems.length > 0) {
        io.stderr.write(`error: not retried: ${problems.join("; ")}\n`);
        throw new CliExit(1);
      }
    });

  withTarget(
    queue
      .command("stats")
      .description("Count the queue's jobs by state: waiting, delayed (and prioritized), active, completed, failed."),
  )
    .option("--json", "print the counts as JSON: { queue, engine, counts: { state: count } }")
    .action(async (options: QueueTarget & JsonOption) => {
      const { engine, counts } = await withQueue(options, async (admin) => ({
        engine: admin.engine,
        counts: await admin.stats(),
      }));
      io.stdout.write(
        options.json
          ? `${printableJson({ queue: options.queue, engine, counts: Object.fromEntries(counted(counts)) })}\n`
          : `${statsTable(counts)}\n`,
      );
    });
}
