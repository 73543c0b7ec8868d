import { createReceiver, sign } from "@tidings/core";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { PostgresStore, type Transactions, transactionsOf } from "../src/index";

// Each query builder's transaction callback carries the handler's row and the delivery's done mark, through
// `transactionsOf`: the README's recipes, run on a real PostgreSQL.

const SECRET = "whsec_builders";

let server: PostgresServer;
let pool: pg.Pool;
let tables = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
});

afterAll(async () => {
  await pool?.end();
  await server?.remove();
});

function delivery(id: string) {
  const body = JSON.stringify({ id, type: "message.failed", data: { id: "msg_1", status: "failed", channel: "sms" } });
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, SECRET) } };
}

/** The store's statement as Drizzle SQL: its `$n` placeholders become Drizzle parameters. */
function drizzleStatement(text: string, params: unknown[]): SQL {
  return sql.join(
    text.split(/\$(\d+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)),
  );
}

interface Builder<Tx> {
  name: string;
  transactions: () => Transactions<Tx>;
  /** The handler's own write, through the library's transaction. */
  write: (tx: Tx, table: string, event: string) => Promise<unknown>;
  close?: () => Promise<void>;
}

function drizzleBuilder() {
  const db = drizzle(pool);
  type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
  return {
    name: "Drizzle (node-postgres)",
    transactions: () =>
      transactionsOf<Tx>({
        transaction: (work) => db.transaction(work),
        query: async (tx, text, params) => (await tx.execute(drizzleStatement(text, params))).rows,
      }),
    write: (tx: Tx, table: string, event: string) =>
      tx.execute(sql`insert into ${sql.identifier(table)} (event_id) values (${event})`),
  } satisfies Builder<Tx>;
}

function kyselyBuilder() {
  const db = new Kysely<Record<string, { event_id: string }>>({ dialect: new PostgresDialect({ pool }) });
  type Tx = Parameters<Parameters<ReturnType<typeof db.transaction>["execute"]>[0]>[0];
  return {
    name: "Kysely (PostgresDialect on pg)",
    transactions: () =>
      transactionsOf<Tx>({
        transaction: (work) => db.transaction().execute(work),
        query: async (trx, text, params) =>
          (await trx.executeQuery(CompiledQuery.raw(text, params))).rows as Record<string, unknown>[],
      }),
    write: (trx: Tx, table: string, event: string) => trx.insertInto(table).values({ event_id: event }).execute(),
  } satisfies Builder<Tx>;
}

function postgresJsBuilder() {
  const db = postgres(server.url, { max: 4, onnotice: () => {} });
  return {
    name: "postgres.js",
    transactions: () =>
      transactionsOf<postgres.TransactionSql>({
        transaction: (work) => db.begin((tx) => work(tx)) as Promise<never>,
        query: (tx, text, params) => tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]),
      }),
    write: (tx: postgres.TransactionSql, table: string, event: string) =>
      tx`insert into ${tx(table)} (event_id) values (${event})`,
    close: () => db.end(),
  } satisfies Builder<postgres.TransactionSql>;
}

describe.each([
  ["Drizzle (node-postgres)", drizzleBuilder],
  ["Kysely (PostgresDialect on pg)", kyselyBuilder],
  ["postgres.js", postgresJsBuilder],
] as const)("%s: one transaction carries the handler's row and the done mark", (_name, make) => {
  let builder: Builder<unknown>;
  beforeAll(() => {
    builder = make() as unknown as Builder<unknown>;
  });
  afterAll(async () => {
    await builder.close?.();
  });

  async function setup() {
    const n = tables++;
    const store = new PostgresStore({ client: pool, table: `builder_${n}` });
    const table = `builder_rows_${n}`;
    // Unique, checked at COMMIT: a handler that writes an id twice makes the commit itself fail.
    await pool.query(`create table ${table} (event_id text, unique (event_id) deferrable initially deferred)`);
    const receiver = createReceiver({
      secret: SECRET,
      store,
      transactions: builder.transactions(),
      logger: { error() {}, warn() {} },
    });
    const rows = async () => (await pool.query(`select event_id from ${table}`)).rows;
    return { store, receiver, table, rows };
  }

  it("commits both; a rerun of the committed delivery does not run the handler", async () => {
    const { store, receiver, table, rows } = await setup();
    let runs = 0;
    receiver.on("message.failed", (event, ctx) => {
      runs++;
      return builder.write(ctx.transaction, table, event.id ?? "");
    });
    expect((await receiver.receive(delivery("evt_commit"))).code).toBe("accepted");
    expect(await rows()).toEqual([{ event_id: "evt_commit" }]);
    expect(await store.claim("event:evt_commit", 10_000)).toEqual({ state: "done" });
    expect((await receiver.receive(delivery("evt_commit"))).code).toBe("duplicate");
    expect(runs).toBe(1);
  });

  it("rolls both back when the handler throws after its write", async () => {
    const { store, receiver, table, rows } = await setup();
    receiver.on("message.failed", async (event, ctx) => {
      await builder.write(ctx.transaction, table, event.id ?? "");
      throw new Error("after the write");
    });
    expect((await receiver.receive(delivery("evt_rollback"))).code).toBe("handler_failed");
    expect(await rows()).toEqual([]);
    expect(await store.claim("event:evt_rollback", 10_000)).toMatchObject({ state: "claimed" });
  });

  it("leaves the key unmarked when the commit itself fails, after the mark was written", async () => {
    const { store, receiver, table, rows } = await setup();
    receiver.on("message.failed", async (event, ctx) => {
      await builder.write(ctx.transaction, table, event.id ?? "");
      await builder.write(ctx.transaction, table, event.id ?? "");
    });
    expect((await receiver.receive(delivery("evt_commit_fails"))).code).toBe("store_unavailable");
    expect(await rows()).toEqual([]);
    expect(await store.claim("event:evt_commit_fails", 10_000)).toMatchObject({ state: "claimed" });
  });
});
