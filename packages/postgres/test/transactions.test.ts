import { PGlite } from "@electric-sql/pglite";
import { createReceiver, type Logger, messageStatusOrder, sign } from "@tidings/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { until } from "../../../test/support/wait";
import { PostgresStore, pgliteTransactions, pgTransactions, type Queryable } from "../src/index";

const SECRET = "whsec_transactions";

let server: PostgresServer;
let pool: pg.Pool;
let pglite: PGlite;
let tables = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
  pool = new pg.Pool({ connectionString: server.url, max: 8 });
  pglite = new PGlite();
});

afterAll(async () => {
  await pool?.end();
  await pglite?.close();
  await server?.remove();
});

/** A delivery of the service's own shape, signed now. */
function delivery(id: string, type: string, messageId = "msg_1") {
  const body = JSON.stringify({
    id,
    type,
    created_at: "2024-01-01T00:00:00Z",
    data: { id: messageId, status: type.slice(8) },
  });
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, SECRET) } };
}

/** A store that answers every renewal as done without extending the lease: the lease runs out mid-handler. */
class UnrenewedStore extends PostgresStore {
  override async renew(): Promise<boolean> {
    return true;
  }
}

interface Engine {
  name: string;
  client: () => Queryable;
  transactions: () => ReturnType<typeof pgTransactions> | ReturnType<typeof pgliteTransactions>;
}

const engines: Engine[] = [
  { name: "node-postgres on PostgreSQL 15", client: () => pool, transactions: () => pgTransactions(pool) },
  { name: "PGlite", client: () => pglite, transactions: () => pgliteTransactions(pglite) },
];

type Tx = { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

describe.each(engines)("transactional handlers in the request ($name)", (engine) => {
  /** A store and an app table of their own, so tests do not see each other's rows. */
  async function setup(options: { order?: boolean; store?: typeof PostgresStore; leaseMs?: number; logger?: Logger }) {
    const n = tables++;
    const client = engine.client();
    const Store = options.store ?? PostgresStore;
    const store = new Store({ client, table: `tx_${n}` });
    await store.setup();
    const app = `app_rows_${n}`;
    await client.query(`create table ${app} (event text primary key, status text)`);
    const receiver = createReceiver({
      secret: SECRET,
      store,
      transactions: engine.transactions(),
      ...(options.order && { order: messageStatusOrder }),
      ...(options.leaseMs && { leaseMs: options.leaseMs, handlerTimeoutMs: options.leaseMs - 1 }),
      logger: options.logger ?? { error() {}, warn() {} },
    });
    const rows = async () => (await client.query(`select event, status from ${app} order by event`)).rows;
    const write = (tx: Tx, event: string, status: string) =>
      tx.query(`insert into ${app} (event, status) values ($1, $2)`, [event, status]);
    return { store, receiver, rows, write, deliveries: `tx_${n}_deliveries` };
  }

  it("commits the handler's row and the done mark together; a duplicate after it writes nothing", async () => {
    const { store, receiver, rows, write } = await setup({});
    let runs = 0;
    receiver.on("message.failed", async (event, ctx) => {
      runs++;
      await write(ctx.transaction as Tx, event.id ?? "", event.data.status);
    });
    expect((await receiver.receive(delivery("evt_1", "message.failed"))).code).toBe("accepted");
    expect(await rows()).toEqual([{ event: "evt_1", status: "failed" }]);
    expect(await store.claim("event:evt_1", 10_000)).toEqual({ state: "done" });
    const again = await receiver.receive(delivery("evt_1", "message.failed"));
    expect(again.code).toBe("duplicate");
    expect(runs).toBe(1);
    expect(await rows()).toHaveLength(1);
  });

  it("rolls the handler's row back when a handler throws, marks nothing, and the retry commits once", async () => {
    const { store, receiver, rows, write } = await setup({});
    let fail = true;
    receiver.on("message.failed", async (event, ctx) => {
      await write(ctx.transaction as Tx, event.id ?? "", event.data.status);
      if (fail) throw new Error("after the write");
    });
    const first = await receiver.receive(delivery("evt_2", "message.failed"));
    expect(first).toMatchObject({ code: "handler_failed", status: 500 });
    expect(await rows()).toEqual([]);
    fail = false;
    expect((await receiver.receive(delivery("evt_2", "message.failed"))).code).toBe("accepted");
    expect(await rows()).toEqual([{ event: "evt_2", status: "failed" }]);
    expect(await store.claim("event:evt_2", 10_000)).toEqual({ state: "done" });
  });

  it("with order, refuses the commit of a holder whose lease ran out mid-handler: its row is not there, and the key not done", async () => {
    const warnings: unknown[] = [];
    const logger = { error() {}, warn: (entry: unknown) => warnings.push(entry) };
    const { store, receiver, rows, write, deliveries } = await setup({
      store: UnrenewedStore,
      leaseMs: 500,
      logger,
      order: true,
    });
    receiver.on("message.failed", async (event, ctx) => {
      const tx = ctx.transaction as Tx;
      await write(tx, event.id ?? "", event.data.status);
      // Until the database's clock is past the lease: another holder may take the delivery from here on.
      const ended = async () =>
        (
          (await tx.query(`select clock_timestamp() > expires_at as past from ${deliveries} where key = $1`, [
            ctx.deliveryKey,
          ])) as { rows: { past: boolean }[] }
        ).rows[0]?.past;
      await until(ended, "the lease to run out");
    });
    const answer = await receiver.receive(delivery("evt_3", "message.failed"));
    expect(answer.status).toBeGreaterThanOrEqual(409);
    await until(() => warnings.some((entry) => (entry as { code?: string }).code === "lease_lost"), "lease_lost");
    expect(await rows()).toEqual([]);
    // Nobody completed it: another holder claims it now, and runs it.
    expect(await store.claim("event:evt_3", 10_000)).toMatchObject({ state: "claimed" });
  });

  it("with order, a stale event writes nothing", async () => {
    const { receiver, rows, write } = await setup({ order: true });
    receiver.on(["message.sent", "message.delivered"], async (event, ctx) => {
      await write(ctx.transaction as Tx, event.id ?? "", event.data.status);
    });
    expect((await receiver.receive(delivery("evt_d", "message.delivered"))).code).toBe("accepted");
    expect((await receiver.receive(delivery("evt_s", "message.sent"))).code).toBe("stale");
    expect(await rows()).toEqual([{ event: "evt_d", status: "delivered" }]);
  });
});

describe("a claim taken in the delivery's transaction, on PostgreSQL", () => {
  it("answers a duplicate arriving meanwhile 409 at once; once committed, the duplicate is answered as one", async () => {
    const n = tables++;
    const store = new PostgresStore({ client: pool, table: `tx_${n}` });
    const receiver = createReceiver({ secret: SECRET, store, transactions: pgTransactions(pool) });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let runs = 0;
    receiver.on("message.failed", async () => {
      runs++;
      started();
      await held;
    });
    const first = receiver.receive(delivery("evt_5", "message.failed"));
    await running;
    // The claim is the transaction's own first write: no other connection sees a row for the key before the commit.
    const seen = async () => (await pool.query(`select key from tx_${n}_deliveries`)).rows;
    expect(await seen()).toEqual([]);
    // The first delivery's transaction is open, holding the key: the second neither waits for it nor runs.
    expect(await receiver.receive(delivery("evt_5", "message.failed"))).toMatchObject({
      code: "delivery_in_progress",
      status: 409,
    });
    release();
    expect((await first).code).toBe("accepted");
    expect(await seen()).toHaveLength(1);
    expect((await receiver.receive(delivery("evt_5", "message.failed"))).code).toBe("duplicate");
    expect(runs).toBe(1);
  });

  it("past handlerTimeoutMs: 503, the key held while the handler runs on, then done once it commits", async () => {
    const n = tables++;
    const store = new PostgresStore({ client: pool, table: `tx_${n}` });
    await pool.query(`create table app_rows_${n} (event text)`);
    const receiver = createReceiver({
      secret: SECRET,
      store,
      transactions: pgTransactions(pool),
      // Long enough for the retry's own BEGIN and claim on a loaded machine: only the first run is held past it.
      handlerTimeoutMs: 2000,
      logger: { error() {}, warn() {} },
    });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let timedOut: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      timedOut = resolve;
    });
    let runs = 0;
    receiver.on("message.failed", async (event, ctx) => {
      runs++;
      await ctx.transaction.query(`insert into app_rows_${n} values ($1)`, [event.id ?? ""]);
      await held;
    });
    receiver.onOutcome((outcome) => {
      if (outcome.code === "handler_timeout") setImmediate(timedOut);
    });
    expect(await receiver.receive(delivery("evt_7", "message.failed"))).toMatchObject({
      code: "handler_timeout",
      status: 503,
    });
    try {
      // The sender's retry while the first run is still in its transaction: neither waits for it nor runs again.
      expect((await receiver.receive(delivery("evt_7", "message.failed"))).code).toBe("delivery_in_progress");
    } finally {
      release();
    }
    await answered;
    const retried = async () => {
      const answer = await receiver.receive(delivery("evt_7", "message.failed"));
      return answer.code === "duplicate" ? answer : undefined;
    };
    await until(retried, "the late commit to mark the key done");
    expect(runs).toBe(1);
    expect((await pool.query(`select event from app_rows_${n}`)).rows).toEqual([{ event: "evt_7" }]);
  });

  it("is let go when the transaction's connection drops mid-handler: nothing committed, the retry runs", async () => {
    const n = tables++;
    const store = new PostgresStore({ client: pool, table: `tx_${n}` });
    await pool.query(`create table app_rows_${n} (event text)`);
    const receiver = createReceiver({ secret: SECRET, store, transactions: pgTransactions(pool) });
    let drop = true;
    receiver.on("message.failed", async (event, ctx) => {
      await ctx.transaction.query(`insert into app_rows_${n} values ($1)`, [event.id ?? ""]);
      // As when the process dies: the server ends the connection, and with it the open transaction.
      if (!drop) return;
      const [backend] = (await ctx.transaction.query("select pg_backend_pid() as pid")).rows;
      await pool.query("select pg_terminate_backend($1)", [backend.pid]);
    });
    const answer = await receiver.receive(delivery("evt_6", "message.failed"));
    expect(answer.status).toBe(503);
    expect((await pool.query(`select event from app_rows_${n}`)).rows).toEqual([]);
    drop = false;
    expect((await receiver.receive(delivery("evt_6", "message.failed"))).code).toBe("accepted");
    expect((await pool.query(`select event from app_rows_${n}`)).rows).toEqual([{ event: "evt_6" }]);
  });
});

describe("with order, a holder whose lease ran out, on PostgreSQL, while another holder took the delivery", () => {
  it("never commits: the other holder's run is the one that counts", async () => {
    const warnings: unknown[] = [];
    const n = tables++;
    const store = new UnrenewedStore({ client: pool, table: `tx_${n}` });
    await store.setup();
    await pool.query(`create table app_rows_${n} (event text, holder text)`);
    const receiver = createReceiver({
      secret: SECRET,
      store,
      transactions: pgTransactions(pool),
      leaseMs: 500,
      handlerTimeoutMs: 499,
      order: messageStatusOrder,
      logger: { error() {}, warn: (entry: unknown) => warnings.push(entry) },
    });
    receiver.on("message.failed", async (event, ctx) => {
      await ctx.transaction.query(`insert into app_rows_${n} values ($1, 'first')`, [event.id ?? ""]);
      // The second holder claims once the lease ran out, and commits its own row and mark on another connection.
      const second = async () => {
        const claim = await store.claim(ctx.deliveryKey, 10_000);
        return claim.state === "claimed" ? claim : undefined;
      };
      const claim = await until(second, "the second holder's claim");
      await pgTransactions(pool).run(async (tx, statements) => {
        await tx.query(`insert into app_rows_${n} values ($1, 'second')`, [event.id ?? ""]);
        expect(await store.completeWithin(statements, ctx.deliveryKey, claim.token, 60_000)).toBe(true);
      });
    });
    const answer = await receiver.receive(delivery("evt_4", "message.failed"));
    expect(answer.status).toBeGreaterThanOrEqual(409);
    await until(() => warnings.some((entry) => (entry as { code?: string }).code === "lease_lost"), "lease_lost");
    expect((await pool.query(`select event, holder from app_rows_${n}`)).rows).toEqual([
      { event: "evt_4", holder: "second" },
    ]);
    expect(await store.claim("event:evt_4", 10_000)).toEqual({ state: "done" });
  });
});

describe("setup", () => {
  it("refuses transactions with a store that cannot join them", () => {
    expect(() => createReceiver({ secret: SECRET, transactions: pgTransactions(pool) })).toThrow(
      /`transactions` needs a store that can mark deliveries done inside the transaction; MemoryStore cannot/,
    );
    const store = new PostgresStore({ client: pool });
    expect(() => createReceiver({ secret: SECRET, store, transactions: {} as never })).toThrow(TypeError);
  });
});
