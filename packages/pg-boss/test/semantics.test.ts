import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeQueueSemantics } from "../../../test/support/queue-semantics-suite";
import * as pgBoss from "../src";
import {
  type CreateWorkerOptions,
  type DeliveryWorker,
  type EnqueueOptions,
  type EnqueueTarget,
  enqueueTo,
  jobIdFor,
  QUEUE_DEFAULTS,
} from "../src";

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

describeQueueSemantics<EnqueueTarget, EnqueueOptions, CreateWorkerOptions>({
  name: "pg-boss",
  group: "pgBoss",
  pkg: pgBoss,
  async open() {
    const name = `q${++queues}`;
    await boss.createQueue(name);
    return {
      name,
      target: { boss, queue: name },
      workerOptions: { boss, queue: name, pgBoss: { pollingIntervalSeconds: 0.5 }, logger: { error() {} } },
      async takesJobs(worker) {
        const { id } = (worker as DeliveryWorker).engineWorker;
        return boss.getWipData().some((work) => work.workId === id && work.state !== "stopping");
      },
      async job(id) {
        const job = await boss.getJobById<Record<string, unknown>>(name, id);
        if (!job) return undefined;
        const error = (job.output as { message?: string } | null)?.message;
        return { state: job.state, data: job.data, ...(error === undefined ? {} : { error }) };
      },
      async settingsOf(id) {
        const job = await boss.getJobById(name, id);
        if (!job) return undefined;
        return {
          attempts: job.retryLimit + 1,
          retryDelaySeconds: job.retryDelay,
          retryBackoff: job.retryBackoff ? "exponential" : "fixed",
          keepCompletedSeconds: job.deleteAfterSeconds,
        };
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
      openAdmin: () => pgBoss.openQueueAdmin({ postgres: postgres.url, queue: name }),
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

  it("every job carries QUEUE_DEFAULTS, whatever policy the queue was created with", async () => {
    const name = `q${++queues}`;
    await boss.createQueue(name, {
      retryLimit: 0,
      retryDelay: 30,
      retryBackoff: false,
      expireInSeconds: 60,
      deleteAfterSeconds: 60,
    });
    const context = (deliveryKey: string) => ({
      type: "message.sent",
      deliveryKey,
      timestamp: 1,
      secretIndex: 0,
      verifiedBody: new Uint8Array(),
      headers: {},
    });
    const stored = async (deliveryKey: string) => {
      const job = await boss.getJobById(name, jobIdFor(deliveryKey));
      return job && [job.retryLimit, job.retryDelay, job.retryBackoff, job.expireInSeconds, job.deleteAfterSeconds];
    };
    const expected = [
      QUEUE_DEFAULTS.attempts - 1,
      QUEUE_DEFAULTS.retryDelaySeconds,
      QUEUE_DEFAULTS.retryBackoff === "exponential",
      QUEUE_DEFAULTS.pgBoss.expireInSeconds,
      QUEUE_DEFAULTS.keepCompletedSeconds,
    ];
    // One `send`, and a batch of two in one `insert`.
    await enqueueTo({ boss, queue: name }, { batch: false })({ id: "evt_send" }, context("event:evt_send"));
    const batched = enqueueTo({ boss, queue: name });
    await Promise.all(["evt_a", "evt_b"].map((id) => batched({ id }, context(`event:${id}`))));
    for (const key of ["event:evt_send", "event:evt_a", "event:evt_b"]) expect(await stored(key)).toEqual(expected);
  });

  it("the worker's engineWorker names the pg-boss worker it started", async () => {
    const name = `q${++queues}`;
    const worker = pgBoss.createWorker({ boss, queue: name, logger: { error() {} } });
    expect(worker.engineWorker.id).toBeUndefined();
    await worker.ready;
    const work = boss.getWipData().find((entry) => entry.workId === worker.engineWorker.id);
    expect([work?.name, work?.options.batchSize]).toEqual([name, QUEUE_DEFAULTS.concurrency]);
    await worker.close();
  });

  it("pg-boss's own options go in `pgBoss`: a job's expiry, a worker's polling", async () => {
    const name = `q${++queues}`;
    const context = {
      type: "message.sent",
      deliveryKey: "event:evt_expiry",
      timestamp: 1,
      secretIndex: 0,
      verifiedBody: new Uint8Array(),
      headers: {},
    };
    await enqueueTo({ boss, queue: name }, { pgBoss: { expireInSeconds: 42 } })({ id: "evt_expiry" }, context);
    expect((await boss.getJobById(name, jobIdFor("event:evt_expiry")))?.expireInSeconds).toBe(42);
    const worker = pgBoss.createWorker({
      boss,
      queue: name,
      pgBoss: { pollingIntervalSeconds: 3 },
      logger: { error() {} },
    });
    await worker.ready;
    const work = boss.getWipData().find((entry) => entry.workId === worker.engineWorker.id);
    expect(work?.options.pollingIntervalSeconds).toBe(3);
    await worker.close();
    expect(() => enqueueTo({ boss, queue: name }, { pgBoss: { expireInSeconds: 0 } })).toThrow(
      /pgBoss\.expireInSeconds must be a positive whole number/,
    );
  });

  it("the former top-level expireInSeconds and pollingIntervalSeconds are refused at setup, naming `pgBoss`", () => {
    expect(() => enqueueTo({ boss, queue: "q" }, { expireInSeconds: 60 } as EnqueueOptions)).toThrow(
      new TypeError("enqueueTo: `expireInSeconds` is now `pgBoss: { expireInSeconds }`"),
    );
    expect(() => pgBoss.createWorker({ boss, queue: "q", pollingIntervalSeconds: 0.5 } as CreateWorkerOptions)).toThrow(
      new TypeError(
        "createWorker: `pollingIntervalSeconds` is not an option every engine takes (logger, order, store, orderWaitMs, leaseMs, doneTtlMs, transactions, queue, concurrency), if it is pg-boss's own, it goes in `pgBoss: { pollingIntervalSeconds }`",
      ),
    );
    // retryBackoff keeps its name; its former values were true and false.
    expect(() => enqueueTo({ boss, queue: "q" }, { retryBackoff: false } as unknown as EnqueueOptions)).toThrow(
      new TypeError('enqueueTo: retryBackoff must be "exponential" or "fixed" (`false` is now "fixed")'),
    );
  });
});
