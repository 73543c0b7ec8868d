import pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeBatching } from "../../../test/support/queue-batch-suite";
import { enqueueTo, jobIdFor } from "../src";

let postgres: PostgresServer;
let boss: PgBoss;
let reader: pg.Pool;
let queues = 0;

beforeAll(async () => {
  postgres = await PostgresServer.start();
  boss = new PgBoss({ connectionString: postgres.url, supervise: false, schedule: false });
  boss.on("error", () => {}); // connection errors while PostgreSQL is stopped
  await boss.start();
  // Reads on connections of their own, never the pool enqueueTo writes with.
  reader = new pg.Pool({ connectionString: postgres.url, max: 2 });
  reader.on("error", () => {});
});
afterAll(async () => {
  await reader?.end();
  await boss?.stop({ graceful: false });
  await postgres?.remove();
});

describeBatching({
  name: "pg-boss",
  async open() {
    const name = `batch${++queues}`;
    return {
      enqueuer: (settings) => enqueueTo({ boss, queue: name }, settings),
      jobIdFor,
      async stored(jobId) {
        const { rows } = await reader.query("SELECT 1 FROM pgboss.job WHERE name = $1 AND id = $2", [name, jobId]);
        return rows.length === 1;
      },
      async jobCount() {
        const { rows } = await reader.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [name]);
        return (rows[0] as { n: number }).n;
      },
      // Rows one transaction inserted share its id (xmin); the jobs are never worked here, so no row was updated.
      async writes() {
        const { rows } = await reader.query(
          "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY xmin::text ORDER BY min(created_on)",
          [name],
        );
        return (rows as { n: number }[]).map((row) => row.n);
      },
      close: async () => {},
    };
  },
  stopServer: () => postgres.stop(),
  startServer: () => postgres.start(),
});
