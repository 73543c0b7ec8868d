import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeQueueSemantics } from "../../../test/support/queue-semantics-suite";
import { createWorker, enqueueTo, jobIdFor } from "../src";

let postgres: PostgresServer;
let boss: PgBoss;
let queues = 0;

beforeAll(async () => {
  postgres = await PostgresServer.start();
  boss = new PgBoss({ connectionString: postgres.url, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 });
  boss.on("error", () => {}); // connection errors while PostgreSQL is stopped
  await boss.start();
});
afterAll(async () => {
  await boss.stop({ graceful: false });
  await postgres.stop();
});

describeQueueSemantics({
  name: "pg-boss",
  async open() {
    const name = `q${++queues}`;
    await boss.createQueue(name);
    return {
      name,
      enqueuer: (settings) => enqueueTo(boss, name, { retryDelaySeconds: 0, ...settings }),
      worker: () => createWorker({ boss, queue: name, pollingIntervalSeconds: 0.5, logger: { error() {} } }),
      jobIdFor,
      async job(id) {
        const job = await boss.getJobById<Record<string, unknown>>(name, id);
        if (!job) return undefined;
        const error = (job.output as { message?: string } | null)?.message;
        return { state: job.state, data: job.data, ...(error === undefined ? {} : { error }) };
      },
      async jobCount() {
        const { rows } = await boss
          .getDb()
          .executeSql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [name]);
        return (rows[0] as { n: number }).n;
      },
      addStray: async (id) => {
        await boss.send(name, { hello: "world" }, { id, retryLimit: 0 });
      },
      cliTarget: ["--postgres", postgres.url],
      close: async () => {},
    };
  },
  stopServer: () => postgres.stop(),
  startServer: () => postgres.start(),
});

describe("pg-boss specifics", () => {
  it("job ids: a name-based (version 5) UUID of the delivery key, the same on every instance", () => {
    const id = jobIdFor("event:evt_1");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jobIdFor("event:evt_1")).toBe(id);
    expect(jobIdFor("event:evt_2")).not.toBe(id);
  });
});
