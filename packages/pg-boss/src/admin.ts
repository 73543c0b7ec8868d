import {
  type FailedDelivery,
  type FoundJob,
  guardConnection,
  type QueueAdmin,
  QueueAdminError,
  type QueueCounts,
  readableJobText,
  reasonOf,
  unknownQueue,
  withoutCredentials,
} from "@tidings/core/dispatch";
import { PgBoss } from "pg-boss";
import { jobIdFor } from "./job-id";

/**
 * The queue the operations below read: your started PgBoss (the part of it they use), the queue's name, and pg-boss's
 * schema if you changed it (default `"pgboss"`).
 *
 * @example
 * ```ts
 * import { type InspectedQueue, listFailed, queueCounts } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * // The app runs pg-boss in a schema of its own, so the target names it.
 * const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: "jobs" });
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const deliveries: InspectedQueue = { boss, queue: "deliveries", schema: "jobs" };
 *
 * console.log(await queueCounts(deliveries));
 * for (const job of await listFailed(deliveries, 20)) console.log(job.id, job.deliveryKey, job.error);
 * await boss.stop();
 * ```
 */
export interface InspectedQueue {
  boss: Pick<PgBoss, "getDb" | "retry">;
  queue: string;
  schema?: string;
}

interface FailedRow {
  id: string;
  type: string | null;
  delivery_key: string | null;
  /** Whether the job holds its event as JSON text, and so its strings as job text. */
  escaped: boolean | null;
  retry_count: number;
  error: string | null;
  completed_on: Date | null;
}

function jobTable({ schema = "pgboss" }: { schema?: string }): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new TypeError(`Not a plain schema name: ${schema}`);
  return `"${schema}".job`;
}

/**
 * Jobs that used up their attempts, oldest first: id, event type, runs, last error.
 *
 * @example
 * ```ts
 * import { listFailed } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * for (const job of await listFailed({ boss, queue: "deliveries" }, 20)) {
 *   console.log(job.id, job.type, job.deliveryKey, `${job.attempts} runs`, job.failedAt?.toISOString(), job.error);
 * }
 * await boss.stop();
 * ```
 */
export async function listFailed(target: InspectedQueue, limit = 100): Promise<FailedDelivery[]> {
  const { boss, queue } = target;
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, data->>'type' AS type, data->>'deliveryKey' AS delivery_key,
            jsonb_typeof(data->'event') = 'string' AS escaped, retry_count,
            COALESCE(output->>'message', output::text) AS error, completed_on
       FROM ${jobTable(target)} WHERE name = $1 AND state = 'failed' ORDER BY completed_on LIMIT $2`,
    [queue, limit],
  );
  return (rows as FailedRow[]).map((row) => ({
    id: row.id,
    type: readableJobText(row.type ?? "", row.escaped === true),
    deliveryKey: readableJobText(row.delivery_key ?? "", row.escaped === true),
    attempts: row.retry_count + 1,
    error: row.error ?? "",
    ...(row.completed_on ? { failedAt: row.completed_on } : {}),
  }));
}

/**
 * Moves failed jobs back to the queue for one more run each; resolves to how many moved.
 *
 * @example
 * ```ts
 * import { listFailed, retryFailed } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const deliveries = { boss, queue: "deliveries" };
 * // The handler for failed messages is fixed: run its failed jobs again, and leave the others for now.
 * const failed = await listFailed(deliveries, 1000);
 * const ids = failed.filter((job) => job.type === "message.failed").map((job) => job.id);
 * console.log(`${await retryFailed(deliveries, ids)} job(s) back in the queue`); // or retryFailed(deliveries, "all")
 * await boss.stop();
 * ```
 */
export async function retryFailed(target: InspectedQueue, ids: readonly string[] | "all"): Promise<number> {
  const { boss, queue } = target;
  const wanted = ids === "all" ? "" : "AND id::text = ANY($2::text[])";
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT id FROM ${jobTable(target)} WHERE name = $1 AND state = 'failed' ${wanted}`,
      ids === "all" ? [queue] : [queue, ids],
    );
  const failed = (rows as { id: string }[]).map((row) => row.id);
  if (failed.length > 0) await boss.retry(queue, failed);
  return failed.length;
}

/**
 * The queue's jobs by state: waiting, delayed, active, completed, failed, cancelled.
 *
 * @example
 * ```ts
 * import { queueCounts } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * const { waiting, active, failed } = await queueCounts({ boss, queue: "deliveries" });
 * console.log(`${waiting} waiting, ${active} active, ${failed} failed`);
 * await boss.stop();
 * ```
 */
export async function queueCounts(target: InspectedQueue): Promise<QueueCounts> {
  const { boss, queue } = target;
  // pg-boss's `created` and `retry` jobs both wait; those whose start_after is ahead wait for later.
  const { rows } = await boss.getDb().executeSql(
    `SELECT CASE WHEN state IN ('created', 'retry') AND start_after > now() THEN 'delayed'
                 WHEN state IN ('created', 'retry') THEN 'waiting' ELSE state::text END AS state,
            count(*)::int AS count
       FROM ${jobTable(target)} WHERE name = $1 GROUP BY 1`,
    [queue],
  );
  const by = new Map((rows as { state: string; count: number }[]).map((row) => [row.state, row.count]));
  const count = (state: string) => by.get(state) ?? 0;
  return {
    waiting: count("waiting"),
    delayed: count("delayed"),
    active: count("active"),
    completed: count("completed"),
    failed: count("failed"),
    cancelled: count("cancelled"),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The job with this id, or else the job of this delivery key.
 *
 * @example
 * ```ts
 * import { findJob } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * // A log line names the delivery: where is its job?
 * const found = await findJob({ boss, queue: "deliveries" }, "event:evt_123");
 * console.log(found ? `job ${found.jobId} is ${found.state}` : "no job for this delivery");
 * await boss.stop();
 * ```
 */
export async function findJob(target: InspectedQueue, idOrDeliveryKey: string): Promise<FoundJob | undefined> {
  const { boss, queue } = target;
  for (const id of [idOrDeliveryKey, jobIdFor(idOrDeliveryKey)]) {
    if (!UUID.test(id)) continue;
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT id, state::text AS state FROM ${jobTable(target)} WHERE name = $1 AND id = $2`, [queue, id]);
    const [row] = rows as { id: string; state: string }[];
    if (row) return { jobId: row.id, state: row.state };
  }
  return undefined;
}

/**
 * Which queue `openQueueAdmin` opens: the database it lives in, its name, and pg-boss's schema.
 *
 * @example
 * ```ts
 * import { openQueueAdmin, type QueueAdminOptions } from "@tidings/pg-boss";
 *
 * // Your tooling's settings: the app runs pg-boss in the schema "jobs".
 * const deliveries: QueueAdminOptions = {
 *   postgres: process.env.DATABASE_URL ?? "postgres://localhost:5432/app",
 *   queue: "deliveries",
 *   schema: "jobs",
 * };
 *
 * const admin = await openQueueAdmin(deliveries);
 * try {
 *   console.log(await admin.failed(20));
 * } finally {
 *   await admin.close();
 * }
 * ```
 */
export interface QueueAdminOptions {
  /** A PostgreSQL URL: `postgres://user:password@host:5432/app`. */
  postgres: string;
  queue: string;
  /** pg-boss's schema, if you changed it. Default `"pgboss"`. */
  schema?: string;
}

const ENGINE = "pg-boss";

/**
 * Why a statement failed if the connection did, else undefined: a socket error (`ECONNREFUSED`…), a SQLSTATE of
 * class 08 (connection exception) or 57P (the server shutting down), or pg's "Connection terminated unexpectedly"
 * for a pooled connection the server closed.
 */
function connectionFailure(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && /^(E[A-Z]+|08...|57P..)$/.test(code)) return /^E/.test(code) ? code : String(message);
  return typeof message === "string" && message.startsWith("Connection terminated") ? message : undefined;
}

/** The schema version this pg-boss works with, and its own version, from its package.json. */
async function pgBossRelease(): Promise<{ version: string; schema: number }> {
  const { default: manifest } = (await import("pg-boss/package.json", { with: { type: "json" } })) as {
    default: { version: string; pgboss: { schema: number } };
  };
  return { version: manifest.version, schema: manifest.pgboss.schema };
}

/** Why `start()` refused, asked of the database without changing it. */
async function startFailure(boss: PgBoss, where: string, schema: string, error: unknown): Promise<QueueAdminError> {
  const installed = await boss.isInstalled().catch(() => undefined);
  if (installed === undefined) {
    const message = `cannot reach PostgreSQL at ${where}: ${reasonOf(error)}`;
    return new QueueAdminError("unreachable", message, { engine: ENGINE, where }, { cause: error });
  }
  if (!installed) {
    const message = `no pg-boss schema "${schema}" in ${where}: is it your app's database? It is never created here`;
    return new QueueAdminError("no_schema", message, { engine: ENGINE, where, schema });
  }
  const found = await boss.schemaVersion().catch(() => null);
  const release = await pgBossRelease();
  return new QueueAdminError(
    "schema_version",
    `the "${schema}" schema in ${where} is at version ${found ?? "unknown"}, pg-boss ${release.version} here works with version ${release.schema}; it is never migrated here: use the pg-boss version your app uses`,
    { engine: ENGINE, where, schema, found, expected: release.schema, engineVersion: release.version },
  );
}

/**
 * Administers one pg-boss queue on a PgBoss instance of its own, stopped by `close()`: what `tidings queue` runs. It
 * changes nothing in the database but retries: no schema created, no migration, no maintenance, no scheduling, no
 * instance registered. Rejects with a `QueueAdminError`: `unreachable`, `no_schema`, `schema_version` (the schema is
 * at another version than the installed pg-boss works with), `unknown_queue`; an operation whose connection dropped
 * rejects with `connection_lost`.
 *
 * @example
 * ```ts
 * import { openQueueAdmin } from "@tidings/pg-boss";
 *
 * const admin = await openQueueAdmin({ postgres: process.env.DATABASE_URL!, queue: "deliveries" });
 * try {
 *   console.log(await admin.stats());
 * } finally {
 *   await admin.close();
 * }
 * ```
 */
export async function openQueueAdmin({ postgres, queue, schema = "pgboss" }: QueueAdminOptions): Promise<QueueAdmin> {
  const where = withoutCredentials(postgres);
  jobTable({ schema }); // a schema name that is not plain is a TypeError before anything connects
  const boss = new PgBoss({
    connectionString: postgres,
    schema,
    migrate: false,
    createSchema: false,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  boss.on("error", () => {}); // a failing command rejects; the event would only repeat it
  try {
    await boss.start();
  } catch (error) {
    const failure = await startFailure(boss, where, schema, error);
    await boss.stop({ graceful: false }).catch(() => {});
    throw failure;
  }
  const close = () => boss.stop({ graceful: false }).catch(() => {});
  const guard = <Args extends unknown[], Result>(operation: (...args: Args) => Promise<Result>) =>
    guardConnection(operation, { engine: ENGINE, server: "PostgreSQL", where }, connectionFailure);
  try {
    if ((await guard(() => boss.getQueue(queue))()) === null) {
      const names = (await guard(() => boss.getQueues())()).map((found) => found.name);
      throw unknownQueue(ENGINE, where, queue, names.filter((name) => !name.startsWith("__pgboss__")).sort());
    }
  } catch (error) {
    await close();
    throw error;
  }
  const target: InspectedQueue = { boss, queue, schema };
  return {
    engine: ENGINE,
    queue,
    failed: guard((limit?: number) => listFailed(target, limit)),
    find: guard((idOrDeliveryKey: string) => findJob(target, idOrDeliveryKey)),
    retry: guard((ids: readonly string[] | "all") => retryFailed(target, ids)),
    stats: guard(() => queueCounts(target)),
    close,
  };
}
