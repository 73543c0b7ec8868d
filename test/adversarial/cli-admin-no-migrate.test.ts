import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tidings } from "../e2e/cli";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { PostgresServer } from "../support/postgres-server";

// `tidings queue … --postgres` is pointed at production databases: it must never create pg-boss's schema nor migrate
// it, whatever pg-boss version it runs with. pg-boss needs Node ≥ 22.12, so the command runs on Node 24.

const testDir = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
let postgres: PostgresServer;
let node24: string;

async function sql<Row>(database: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: postgres.url.replace(/\/postgres$/, `/${database}`) });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

const urlOf = (database: string) => postgres.url.replace(/\/postgres$/, `/${database}`);
const cli = (args: string[]) => tidings(args, { node: node24 });

/** What the database holds: its schemas and their tables, and pg-boss's version row. */
async function snapshot(database: string) {
  const tables = await sql<{ name: string }>(
    database,
    "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
  );
  const schemas = await sql<{ name: string }>(
    database,
    "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name = 'pgboss'",
  );
  const version = schemas.length ? await sql<{ version: number }>(database, "SELECT version FROM pgboss.version") : [];
  return { tables: tables.map((row) => row.name), schemas: schemas.map((row) => row.name), version };
}

/** An app's pg-boss (this repository's) installs its schema, creates the queue and fails one delivery's job. */
async function installAppSchema(database: string): Promise<void> {
  const script = `
    import { PgBoss } from "pg-boss";
    import { jobIdFor } from "@tidings/pg-boss";
    const boss = new PgBoss({ connectionString: process.argv[1] });
    await boss.start();
    await boss.createQueue("deliveries");
    await boss.send("deliveries", { type: "message.delivered", deliveryKey: "event:evt_dead" }, { id: jobIdFor("event:evt_dead"), retryLimit: 0 });
    const [job] = await boss.fetch("deliveries");
    await boss.fail("deliveries", job.id, new Error("downstream refused"));
    await boss.stop({ graceful: false });
  `;
  await run(
    node24,
    ["--conditions=@tidings/source", "--import", "tsx", "--input-type=module", "-e", script, urlOf(database)],
    {
      cwd: testDir,
    },
  );
}

beforeAll(async () => {
  ensureNodeBinaries();
  node24 = nodeBinary("node24");
  postgres = await PostgresServer.start();
  for (const database of ["fresh", "older", "newer", "app"]) await sql("postgres", `CREATE DATABASE ${database}`);
  for (const database of ["older", "newer", "app"]) await installAppSchema(database);
  await sql("older", "UPDATE pgboss.version SET version = version - 1");
  await sql("newer", "UPDATE pgboss.version SET version = version + 1");
}, 120_000);
afterAll(() => postgres?.remove());

const COMMANDS = [
  ["queue", "stats"],
  ["queue", "failed"],
  ["queue", "retry", "--all"],
];

describe("tidings queue --postgres never creates nor migrates pg-boss's schema", () => {
  it("on a database without pg-boss: one error line, exit 1, and still no schema nor table", async () => {
    for (const command of COMMANDS) {
      const result = await cli([...command, "--postgres", urlOf("fresh"), "--queue", "deliveries"]);
      expect([result.code, result.stdout]).toEqual([1, ""]);
      expect(result.stderr).toBe(
        `error: no pg-boss schema "pgboss" in ${urlOf("fresh").replace("postgres@", "")}: is it your app's database? tidings queue never creates one\n`,
      );
    }
    expect(await snapshot("fresh")).toEqual({ tables: [], schemas: [], version: [] });
  });

  it.each(["older", "newer"])(
    "on a schema of an %s version: one error line naming both versions, schema untouched",
    async (database) => {
      const before = await snapshot(database);
      for (const command of COMMANDS) {
        const result = await cli([...command, "--postgres", urlOf(database), "--queue", "deliveries"]);
        expect([result.code, result.stdout]).toEqual([1, ""]);
        expect(result.stderr).toMatch(
          new RegExp(
            `^error: the "pgboss" schema in .* is at version ${before.version[0]?.version}, pg-boss [\\d.]+ here works with version \\d+; tidings queue never migrates it: run it with the pg-boss version your app uses\\n$`,
          ),
        );
      }
      expect(await snapshot(database)).toEqual(before);
    },
  );

  it("on the app's schema: reads, retries by delivery key, and leaves the tables as they were", async () => {
    const before = (await snapshot("app")).tables;
    const target = ["--postgres", urlOf("app"), "--queue", "deliveries"];
    const stats = await cli(["queue", "stats", ...target, "--json"]);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      engine: "pg-boss",
      counts: { waiting: 0, delayed: 0, failed: 1 },
    });
    const misspelled = await cli(["queue", "stats", "--postgres", urlOf("app"), "--queue", "delivery"]);
    expect([misspelled.code, misspelled.stderr]).toEqual([
      1,
      "error: no queue named delivery in this pg-boss (its queues: deliveries)\n",
    ]);
    const unknown = await cli(["queue", "retry", "event:evt_nope", ...target]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      "error: not retried: event:evt_nope: no such job or delivery key in deliveries\n",
    ]);
    const retried = await cli(["queue", "retry", "event:evt_dead", ...target]);
    expect([retried.code, retried.stdout, retried.stderr]).toEqual([0, "1 job(s) back in deliveries\n", ""]);
    expect((await snapshot("app")).tables).toEqual(before);
  });
});
