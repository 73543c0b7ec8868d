import { PGlite } from "@electric-sql/pglite";
import { PostgresStore } from "@tidings/postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PostgresServer } from "../support/postgres-server";
import { describeStoreContract } from "./contract";

let server: PostgresServer;
let pool: pg.Pool;
// A second pool on the same database, for the second instance of a race.
let twinPool: pg.Pool;
let pglite: PGlite;
const tables = new WeakMap<object, string>();
let stores = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
  pool = new pg.Pool({ connectionString: server.url, max: 8 });
  twinPool = new pg.Pool({ connectionString: server.url, max: 8 });
  pglite = new PGlite();
});

afterAll(async () => {
  await pool?.end();
  await twinPool?.end();
  await pglite?.close();
  await server?.remove();
});

// Each store gets tables of its own, created on first use, as an app's first delivery creates them.
function made(client: pg.Pool | PGlite): PostgresStore {
  const table = `contract_${stores++}`;
  const store = new PostgresStore({ client, table });
  tables.set(store, table);
  return store;
}

describeStoreContract("PostgresStore on PostgreSQL 15", () => made(pool), {
  twin: (store) => new PostgresStore({ client: twinPool, table: tables.get(store) ?? "" }),
});

describeStoreContract("PostgresStore on PGlite", () => made(pglite), {
  twin: (store) => new PostgresStore({ client: pglite, table: tables.get(store) ?? "" }),
});
