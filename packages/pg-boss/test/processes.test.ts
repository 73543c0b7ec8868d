import { fileURLToPath } from "node:url";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeHandOff } from "../../../test/support/queue-handoff-suite";

let postgres: PostgresServer;
let boss: PgBoss;
beforeAll(async () => {
  postgres = await PostgresServer.start();
  // Installs pg-boss's schema once, before several processes start on the database.
  boss = new PgBoss({ connectionString: postgres.url, supervise: false, schedule: false });
  boss.on("error", () => {});
  await boss.start();
});
afterAll(async () => {
  await boss.stop({ graceful: false });
  await postgres.stop();
});

describeHandOff({
  name: "pg-boss",
  receiverScript: fileURLToPath(new URL("fixtures/receiver.ts", import.meta.url)),
  workerScript: fileURLToPath(new URL("fixtures/worker.ts", import.meta.url)),
  env: () => ({ POSTGRES_URL: postgres.url }),
  async jobCount(queue) {
    const { rows } = await boss
      .getDb()
      .executeSql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [queue]);
    return (rows[0] as { n: number }).n;
  },
  async runningEventIds(queue) {
    const { rows } = await boss
      .getDb()
      .executeSql("SELECT (data->>'event')::jsonb->>'id' AS id FROM pgboss.job WHERE name = $1 AND state = 'active'", [
        queue,
      ]);
    return rows.map((row) => (row as { id: string }).id);
  },
  stopServer: () => postgres.stop(),
  startServer: () => postgres.start(),
});
