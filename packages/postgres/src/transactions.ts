import type { TransactionStatements, Transactions } from "@tidings/core/adapter";

/**
 * What `transactionsOf` needs of a database library: its transaction callback, and a way to run one statement (SQL
 * with `$1`, `$2`… parameters) in the transaction it opened and read the rows back.
 *
 * @example
 * ```ts
 * import { transactionsOf, type TransactionHook } from "@tidings/postgres";
 * import postgres from "postgres";
 *
 * const sql = postgres(process.env.DATABASE_URL!);
 * // postgres.js: sql.begin opens the transaction; unsafe runs a statement with parameters in it.
 * const hook: TransactionHook<postgres.TransactionSql> = {
 *   transaction: (work) => sql.begin((tx) => work(tx)) as Promise<never>,
 *   query: (tx, text, params) => tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]),
 * };
 * export const transactions = transactionsOf(hook);
 * ```
 */
export interface TransactionHook<Tx> {
  /** Runs `work` in a new transaction: commits when it resolves, rolls back (rejecting) when it rejects. */
  transaction<T>(work: (transaction: Tx) => Promise<T>): Promise<T>;
  /** Runs one statement in the transaction; resolves with its rows. */
  query(transaction: Tx, text: string, params: unknown[]): Promise<readonly Record<string, unknown>[]>;
}

/**
 * Transactions for a Receiver's or worker's `transactions` from any library's transaction callback: Drizzle,
 * Kysely, postgres.js, Prisma… Handlers get the library's own handle as `ctx.transaction`; the store's done mark runs
 * in the same transaction through `query`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { PostgresStore, transactionsOf } from "@tidings/postgres";
 * import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from "kysely";
 * import pg from "pg";
 *
 * interface Database {
 *   failures: { message_id: string };
 * }
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
 *
 * const transactions = transactionsOf<Transaction<Database>>({
 *   transaction: (work) => db.transaction().execute(work),
 *   query: async (trx, text, params) =>
 *     (await trx.executeQuery(CompiledQuery.raw(text, params))).rows as Record<string, unknown>[],
 * });
 * export const receiver = createReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   store: new PostgresStore({ client: pool }),
 *   transactions,
 * }).on("message.failed", async (event, ctx) => {
 *   await ctx.transaction.insertInto("failures").values({ message_id: event.data.id }).execute();
 * });
 * ```
 */
export function transactionsOf<Tx>(hook: TransactionHook<Tx>): Transactions<Tx> {
  if (typeof hook?.transaction !== "function" || typeof hook.query !== "function") {
    throw new TypeError(
      "transactionsOf needs { transaction, query }: the library's transaction callback, and a statement",
    );
  }
  return {
    run: (work) =>
      hook.transaction((transaction) => {
        const statements: TransactionStatements = { query: (text, params) => hook.query(transaction, text, params) };
        return work(transaction, statements);
      }),
  };
}

/**
 * What `pgTransactions` needs of a node-postgres client checked out of the pool (a `PoolClient` has it).
 *
 * @example
 * ```ts
 * import type { PgTransactionClient } from "@tidings/postgres";
 * import type { PoolClient } from "pg";
 *
 * export const fits = (client: PoolClient): PgTransactionClient => client;
 * ```
 */
export interface PgTransactionClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(destroy?: boolean | Error): void;
  /** node-postgres emits a connection's errors on its client: heard here, so that none ends the process. */
  on?(event: "error", listener: (error: Error) => void): unknown;
}

const hearing = new WeakSet<PgTransactionClient>();
const ignore = () => {};

/**
 * A checked-out client's connection error (the server ending its connection) is emitted on the client, and unheard it
 * would end the process. Heard once per client, for its life: the statement in flight rejects with the error anyway,
 * the ROLLBACK then fails, and the client is destroyed rather than put back.
 */
function hearConnectionErrors(client: PgTransactionClient): void {
  if (hearing.has(client) || !client.on) return;
  hearing.add(client);
  client.on("error", ignore);
}

/**
 * What `pgTransactions` needs of a node-postgres `Pool`: both forms of `connect`, as node-postgres declares them, so
 * that TypeScript finds the pool's client type (a `PoolClient`) for `ctx.transaction`.
 *
 * @example
 * ```ts
 * import type { PgPoolLike } from "@tidings/postgres";
 * import type { Pool, PoolClient } from "pg";
 *
 * export const fits = (pool: Pool): PgPoolLike<PoolClient> => pool;
 * ```
 */
export interface PgPoolLike<Client> {
  connect(): Promise<Client>;
  connect(
    callback: (error: Error | undefined, client: Client | undefined, done: (release?: unknown) => void) => void,
  ): void;
}

/**
 * node-postgres transactions on `pool`: each delivery's handlers run on a client checked out of the pool, between
 * `BEGIN` and `COMMIT` (or `ROLLBACK`), and find it in `ctx.transaction` (a `PoolClient`).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { PostgresStore, pgTransactions } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, query_timeout: 2000 });
 * export const receiver = createReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   store: new PostgresStore({ client: pool }),
 *   transactions: pgTransactions(pool),
 * }).on("message.failed", async (event, ctx) => {
 *   await ctx.transaction.query("insert into failures (message_id) values ($1)", [event.data.id]);
 * });
 * ```
 */
export function pgTransactions<Client extends PgTransactionClient>(pool: PgPoolLike<Client>): Transactions<Client> {
  if (typeof pool?.connect !== "function") throw new TypeError("pgTransactions needs a node-postgres Pool");
  return {
    async run(work) {
      const client = await pool.connect();
      hearConnectionErrors(client);
      let broken: unknown;
      try {
        await client.query("BEGIN");
        const result = await work(client, { query: async (text, params) => (await client.query(text, params)).rows });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
        } catch (rollback) {
          broken = rollback; // the connection is unusable: destroyed, not put back
        }
        throw error;
      } finally {
        client.release(broken instanceof Error ? broken : broken !== undefined);
      }
    },
  };
}

/**
 * What `pgliteTransactions` needs of a PGlite instance: its `transaction` callback, whose handle runs queries.
 *
 * @example
 * ```ts
 * import { PGlite, type Transaction } from "@electric-sql/pglite";
 * import type { PgliteLike } from "@tidings/postgres";
 *
 * export const fits = (db: PGlite): PgliteLike<Transaction> => db;
 * ```
 */
export interface PgliteLike<Tx extends { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> }> {
  transaction<T>(work: (transaction: Tx) => Promise<T>): Promise<T>;
}

/**
 * PGlite transactions: each delivery's handlers run in `db.transaction(…)` and find PGlite's `Transaction` in
 * `ctx.transaction`. PGlite runs one transaction at a time: deliveries' handlers take turns.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { createReceiver } from "@tidings/core";
 * import { PostgresStore, pgliteTransactions } from "@tidings/postgres";
 *
 * const db = new PGlite("./data/app");
 * export const receiver = createReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   store: new PostgresStore({ client: db }),
 *   transactions: pgliteTransactions(db),
 * }).on("message.failed", async (event, ctx) => {
 *   await ctx.transaction.query("insert into failures (message_id) values ($1)", [event.data.id]);
 * });
 * ```
 */
export function pgliteTransactions<
  Tx extends { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> },
>(db: PgliteLike<Tx>): Transactions<Tx> {
  return transactionsOf<Tx>({
    transaction: (work) => db.transaction(work),
    query: async (tx, text, params) => (await tx.query(text, params)).rows as Record<string, unknown>[],
  });
}
