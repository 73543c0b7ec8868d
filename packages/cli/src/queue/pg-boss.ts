import type { FailedDelivery } from "@tidings/core/dispatch";
import type { PgBoss } from "pg-boss";
import { CliError } from "../io";
import { type AdminQueue, reasonOf, withoutCredentials } from "./admin";
import { loadEngine } from "./load";

interface TidingsPgBoss {
  listFailed(boss: PgBoss, queue: string, limit?: number): Promise<FailedDelivery[]>;
  retryFailed(boss: PgBoss, queue: string, ids: readonly string[] | "all"): Promise<number>;
  jobIdFor(deliveryKey: string): string;
}

const INSTALL = "npm install @tidings/pg-boss pg-boss";
const SCHEMA = "pgboss";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The schema version this pg-boss works with, and its own version, from its package.json. */
async function pgBossRelease(): Promise<{ version: string; schema: number }> {
  const { default: manifest } = (await import(/* @vite-ignore */ "pg-boss/package.json", {
    with: { type: "json" },
  })) as {
    default: { version: string; pgboss: { schema: number } };
  };
  return { version: manifest.version, schema: manifest.pgboss.schema };
}

/** Why `start()` refused, said so that the operator knows what to do; nothing in the database was changed. */
async function startFailure(boss: PgBoss, where: string, error: unknown): Promise<CliError> {
  const installed = await boss.isInstalled().catch(() => undefined);
  if (installed === undefined) return new CliError(`cannot reach PostgreSQL at ${where}: ${reasonOf(error)}`);
  if (!installed) {
    return new CliError(
      `no pg-boss schema "${SCHEMA}" in ${where}: is it your app's database? tidings queue never creates one`,
    );
  }
  const found = await boss.schemaVersion().catch(() => null);
  const release = await pgBossRelease();
  return new CliError(
    `the "${SCHEMA}" schema in ${where} is at version ${found ?? "unknown"}, pg-boss ${release.version} here works with version ${release.schema}; tidings queue never migrates it: run it with the pg-boss version your app uses`,
  );
}

/**
 * Opens a pg-boss queue in this database without changing the database: no schema created, no migration, no
 * maintenance, no instance registered. A missing schema or one of another version is a `CliError`.
 */
export async function openPgBoss(url: string, name: string): Promise<AdminQueue> {
  const tidings = await loadEngine<TidingsPgBoss>("@tidings/pg-boss", INSTALL);
  const { PgBoss: Boss } = await loadEngine<{ PgBoss: typeof PgBoss }>("pg-boss", INSTALL);
  const where = withoutCredentials(url);
  const boss = new Boss({
    connectionString: url,
    schema: SCHEMA,
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
    const failure = await startFailure(boss, where, error);
    await boss.stop({ graceful: false }).catch(() => {});
    throw failure;
  }

  const guarded =
    <Args extends unknown[], Result>(operation: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      try {
        return await operation(...args);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === "string" && /^E[A-Z]+$/.test(code)) {
          throw new CliError(`lost the connection to PostgreSQL at ${where}: ${code}`);
        }
        throw error;
      }
    };

  const find = async (jobId: string) => {
    if (!UUID.test(jobId)) return undefined;
    const job = await boss.getJobById(name, jobId);
    return job ? { jobId: job.id, state: job.state } : undefined;
  };

  return {
    engine: "pg-boss",
    exists: guarded(async () => (await boss.getQueue(name)) !== null),
    queueNames: guarded(async () =>
      (await boss.getQueues())
        .map((queue) => queue.name)
        .filter((queue) => !queue.startsWith("__pgboss__"))
        .sort(),
    ),
    failed: guarded((limit: number) => tidings.listFailed(boss, name, limit)),
    find: guarded(async (idOrKey: string) => (await find(idOrKey)) ?? (await find(tidings.jobIdFor(idOrKey)))),
    retry: guarded((jobIds: readonly string[] | "all") => tidings.retryFailed(boss, name, jobIds)),
    stats: guarded(async () => {
      // pg-boss's `created` and `retry` jobs are both waiting; those whose start_after is ahead wait for later.
      const { rows } = await boss.getDb().executeSql(
        `SELECT CASE WHEN state IN ('created', 'retry') AND start_after > now() THEN 'delayed'
                     WHEN state IN ('created', 'retry') THEN 'waiting' ELSE state::text END AS state,
                count(*)::int AS count
           FROM "${SCHEMA}".job WHERE name = $1 GROUP BY 1`,
        [name],
      );
      const by = new Map((rows as { state: string; count: number }[]).map((row) => [row.state, row.count]));
      return [
        { state: "waiting", count: by.get("waiting") ?? 0 },
        { state: "delayed", count: by.get("delayed") ?? 0 },
        { state: "active", count: by.get("active") ?? 0 },
        { state: "completed", count: by.get("completed") ?? 0 },
        { state: "failed", count: by.get("failed") ?? 0 },
        { state: "cancelled", count: by.get("cancelled") ?? 0 },
      ];
    }),
    close: () => boss.stop({ graceful: false }).catch(() => {}),
  };
}
