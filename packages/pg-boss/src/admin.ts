import { type FailedDelivery, type QueueAdmin, type QueueCounts, readableJobText } from "@tidings/core/dispatch";
import { PgBoss } from "pg-boss";

/** The part of a started `PgBoss` instance that the operations below use. */
export type InspectedBoss = Pick<PgBoss, "getDb" | "retry">;

export interface InspectOptions {
  /** pg-boss's schema, if you changed it. Default `"pgboss"`. */
  schema?: string;
}

interface FailedRow {
  id: string;
  type: string | null;
  delivery_key: string | null;
  retry_count: number;
  error: string | null;
  completed_on: Date | null;
}

function jobTable({ schema = "pgboss" }: InspectOptions): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new TypeError(`Not a plain schema name: ${schema}`);
  return `"${schema}".job`;
}

/** Jobs that used up their attempts, oldest first: id, event type, runs, last error. */
export async function listFailed(
  boss: InspectedBoss,
  queue: string,
  limit = 100,
  options: InspectOptions = {},
): Promise<FailedDelivery[]> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, data->>'type' AS type, data->>'deliveryKey' AS delivery_key, retry_count,
            COALESCE(output->>'message', output::text) AS error, completed_on
       FROM ${jobTable(options)} WHERE name = $1 AND state = 'failed' ORDER BY completed_on LIMIT $2`,
    [queue, limit],
  );
  return (rows as FailedRow[]).map((row) => ({
    id: row.id,
    type: readableJobText(row.type ?? ""),
    deliveryKey: readableJobText(row.delivery_key ?? ""),
    attempts: row.retry_count + 1,
    error: row.error ?? "",
    ...(row.completed_on ? { failedAt: row.completed_on } : {}),
  }));
}

/** Moves failed jobs back to the queue for one more run each; resolves to how many moved. */
export async function retryFailed(
  boss: InspectedBoss,
  queue: string,
  ids: readonly string[] | "all",
  options: InspectOptions = {},
): Promise<number> {
  const wanted = ids === "all" ? "" : "AND id::text = ANY($2::text[])";
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT id FROM ${jobTable(options)} WHERE name = $1 AND state = 'failed' ${wanted}`,
      ids === "all" ? [queue] : [queue, ids],
    );
  const failed = (rows as { id: string }[]).map((row) => row.id);
  if (failed.length > 0) await boss.retry(queue, failed);
  return failed.length;
}

export async function queueCounts(
  boss: InspectedBoss,
  queue: string,
  options: InspectOptions = {},
): Promise<QueueCounts> {
  const { rows } = await boss
    .getDb()
    .executeSql(`SELECT state, count(*)::int AS count FROM ${jobTable(options)} WHERE name = $1 GROUP BY state`, [
      queue,
    ]);
  const by = new Map((rows as { state: string; count: number }[]).map((row) => [row.state, row.count]));
  const count = (state: string) => by.get(state) ?? 0;
  return {
    waiting: count("created") + count("retry"),
    active: count("active"),
    completed: count("completed"),
    failed: count("failed"),
  };
}

/** `tidings queue` on a PostgreSQL URL: a PgBoss instance of its own that runs no maintenance, stopped by `close()`. */
export async function openQueueAdmin({
  postgres,
  queue,
  schema,
}: { postgres: string; queue: string } & InspectOptions): Promise<QueueAdmin> {
  const options = schema === undefined ? {} : { schema };
  const boss = new PgBoss({ connectionString: postgres, supervise: false, schedule: false, ...options });
  boss.on("error", () => {}); // a failing command rejects; the event would only repeat it
  await boss.start();
  return {
    failed: (limit) => listFailed(boss, queue, limit, options),
    retry: (ids) => retryFailed(boss, queue, ids, options),
    stats: () => queueCounts(boss, queue, options),
    close: () => boss.stop({ graceful: false }),
  };
}
