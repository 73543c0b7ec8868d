import pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/support/free-port";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeQueueAdmin } from "../../../test/support/queue-admin-suite";
import { jobIdFor, openQueueAdmin, type QueueAdminError } from "../src";

let postgres: PostgresServer;
let boss: PgBoss;

beforeAll(async () => {
  postgres = await PostgresServer.start();
  boss = new PgBoss({ connectionString: postgres.url, supervise: false, schedule: false });
  boss.on("error", () => {}); // while PostgreSQL is stopped
  await boss.start();
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await postgres?.remove();
});

const urlOf = (database: string) => postgres.url.replace(/\/postgres$/, `/${database}`);

async function sql<Row>(database: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

async function rejection(promise: Promise<unknown>): Promise<QueueAdminError> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: QueueAdminError) => error,
  );
}

const tablesOf = (database: string) =>
  sql<{ name: string }>(
    database,
    "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
  );

describeQueueAdmin({
  name: "pg-boss",
  open: (url, queue) => openQueueAdmin({ postgres: url, queue }),
  url: () => postgres.url,
  deadUrl: async () => `postgres://ops:s3cret@127.0.0.1:${await freePort()}/app`,
  jobIdFor,
  async seed(name) {
    await boss.createQueue(name);
    for (const key of ["event:evt_dead1", "event:evt_dead2"]) {
      await boss.send(name, { type: "message.delivered", deliveryKey: key }, { id: jobIdFor(key), retryLimit: 0 });
    }
    const jobs = await boss.fetch(name, { batchSize: 2 });
    await boss.fail(
      name,
      jobs.map((job) => job.id),
      new Error("downstream refused"),
    );
    await boss.send(name, { deliveryKey: "event:evt_later" }, { startAfter: 3600 });
    await boss.send(name, { deliveryKey: "event:evt_plain" });
    const cancelled = await boss.send(name, { deliveryKey: "event:evt_cancelled" });
    await boss.cancel(name, cancelled as string);
  },
  seededCounts: { waiting: 1, delayed: 1, active: 0, completed: 0, failed: 2, cancelled: 1 },
  footprint: async () => [
    await tablesOf("postgres"),
    await sql("postgres", "SELECT name FROM pgboss.queue ORDER BY 1"),
  ],
  stopServer: () => postgres.stop(),
  startServer: () => postgres.start(),
});

describe("openQueueAdmin (pg-boss) never creates nor migrates the schema", () => {
  it("a database without pg-boss: no_schema, and still no table", async () => {
    await sql("postgres", "CREATE DATABASE fresh");
    const error = await rejection(openQueueAdmin({ postgres: urlOf("fresh"), queue: "deliveries" }));
    expect([error.code, error.details.schema]).toEqual(["no_schema", "pgboss"]);
    expect(await tablesOf("fresh")).toEqual([]);
  });

  it("a schema of another version: schema_version with both versions, and the version row untouched", async () => {
    await sql("postgres", "CREATE DATABASE older");
    const app = new PgBoss({ connectionString: urlOf("older"), supervise: false, schedule: false });
    await app.start();
    await app.stop({ graceful: false });
    const [{ version } = { version: -1 }] = await sql<{ version: number }>(
      "older",
      "UPDATE pgboss.version SET version = version - 1 RETURNING version",
    );
    const error = await rejection(openQueueAdmin({ postgres: urlOf("older"), queue: "deliveries" }));
    expect(error.code).toBe("schema_version");
    expect(error.details).toMatchObject({ found: version, expected: version + 1, schema: "pgboss" });
    expect(await sql("older", "SELECT version FROM pgboss.version")).toEqual([{ version }]);
  });
});
