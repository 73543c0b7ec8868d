import { PGlite, type Transaction } from "@electric-sql/pglite";
import { messageStatusOrder } from "@tidings/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresStore, pgliteTransactions } from "../src/index";
import { job, ListWorker } from "./support/list-worker";

// The worker half every engine shares, with transactions on PGlite: what a job run returns, and what it wrote.

let db: PGlite;
let n = 0;
beforeAll(() => {
  db = new PGlite();
});
afterAll(async () => {
  await db?.close();
});

async function setup(ordered: boolean) {
  const table = `worker_rows_${n++}`;
  await db.query(`create table ${table} (event_id text)`);
  const store = new PostgresStore({ client: db, table: `${table}_store` });
  const worker = new ListWorker<Transaction>({
    store,
    transactions: pgliteTransactions(db),
    logger: { error() {}, warn() {} },
    ...(ordered && { order: messageStatusOrder }),
  });
  let fail = false;
  worker.onAny(async (event, ctx) => {
    await ctx.transaction.query(`insert into ${table} values ($1)`, [event.id]);
    if (fail) throw new Error("after the write");
  });
  const rows = async () => (await db.query<{ event_id: string }>(`select event_id from ${table}`)).rows;
  return { worker, rows, failNext: (value: boolean) => (fail = value) };
}

describe.each([false, true])("a worker's job in a transaction (order: %s)", (ordered) => {
  it("writes once: a rerun of a committed job completes as a duplicate without running the handler", async () => {
    const { worker, rows } = await setup(ordered);
    expect(await worker.runJob(job("evt_1", "delivered"))).toBe("completed");
    expect(await worker.runJob(job("evt_1", "delivered"), 2)).toBe("duplicate");
    expect(await rows()).toEqual([{ event_id: "evt_1" }]);
  });

  it("a handler that throws leaves nothing; the retry writes once", async () => {
    const { worker, rows, failNext } = await setup(ordered);
    failNext(true);
    await expect(worker.runJob(job("evt_2", "delivered"))).rejects.toThrow("after the write");
    expect(await rows()).toEqual([]);
    failNext(false);
    expect(await worker.runJob(job("evt_2", "delivered"), 2)).toBe("completed");
    expect(await rows()).toEqual([{ event_id: "evt_2" }]);
  });
});

it("with order, a stale job writes nothing", async () => {
  const { worker, rows } = await setup(true);
  expect(await worker.runJob(job("evt_d", "delivered"))).toBe("completed");
  expect(await worker.runJob(job("evt_s", "sent"))).toBe("stale");
  expect(await rows()).toEqual([{ event_id: "evt_d" }]);
});
