import type { DeliveryStore, ObjectPosition } from "./delivery-store";

/**
 * Runs one statement in an open transaction and resolves with the rows it returned: how a store that can join a
 * transaction writes its done mark there. `@tidings/postgres` makes one for each database library.
 *
 * @example
 * ```ts fragment
 * import type { TransactionStatements } from "@tidings/core/adapter";
 * import type { PoolClient } from "pg";
 *
 * // node-postgres: the client the transaction runs on.
 * export const statementsOn = (client: PoolClient): TransactionStatements => ({
 *   query: async (text, params) => (await client.query(text, params)).rows,
 * });
 * ```
 */
export interface TransactionStatements {
  query(text: string, params: unknown[]): Promise<readonly Record<string, unknown>[]>;
}

/**
 * A database library's transactions: what a Receiver or worker given `transactions` runs each delivery's handlers in,
 * so their writes and the delivery's done mark commit together or not at all. `Tx` is the library's own handle to the
 * transaction (a node-postgres `PoolClient`, PGlite's `Transaction`, a Drizzle `tx`…): handlers find it in
 * `ctx.transaction`. Made by `@tidings/postgres` (`pgTransactions`, `pgliteTransactions`, `transactionsOf`).
 *
 * @example
 * ```ts
 * import type { Transactions } from "@tidings/core/adapter";
 * import type { Pool, PoolClient } from "pg";
 *
 * // What `pgTransactions(pool)` does: BEGIN, the work, COMMIT; ROLLBACK when the work rejects.
 * export function transactionsOn(pool: Pool): Transactions<PoolClient> {
 *   return {
 *     async run(work) {
 *       const client = await pool.connect();
 *       try {
 *         await client.query("BEGIN");
 *         const result = await work(client, { query: async (text, params) => (await client.query(text, params)).rows });
 *         await client.query("COMMIT");
 *         return result;
 *       } catch (error) {
 *         await client.query("ROLLBACK").catch(() => {});
 *         throw error;
 *       } finally {
 *         client.release();
 *       }
 *     },
 *   };
 * }
 * ```
 */
export interface Transactions<Tx> {
  /**
   * Opens a transaction and runs `work` in it: commits when `work` resolves, then resolves with its value; rolls back
   * when it rejects, then rejects with its error (or with the database's, if the transaction itself failed).
   */
  run<T>(work: (transaction: Tx, statements: TransactionStatements) => Promise<T>): Promise<T>;
}

/**
 * A store whose done marks can be written inside the app's own transaction (`PostgresStore`): what `transactions`
 * needs. Both steps act only through `statements`, so they commit or roll back with the handlers' writes.
 *
 * @example
 * ```ts
 * import type { DeliveryStore } from "@tidings/core";
 * import type { TransactionalStore } from "@tidings/core/adapter";
 *
 * // Whether a store can carry transactional handlers: what createReceiver checks before it takes `transactions`.
 * export const joinsTransactions = (store: DeliveryStore): store is TransactionalStore =>
 *   typeof (store as Partial<TransactionalStore>).completeWithin === "function";
 * ```
 */
export interface TransactionalStore extends DeliveryStore {
  /**
   * Prepares what the steps below need (creates the tables if missing), outside any transaction: called before a
   * transaction first uses the store. Resolves at once once done.
   */
  setup(): Promise<void>;
  /**
   * In the transaction: marks the claimed key done for `ttlMs` (with `order`, moves the object's position and ends its
   * lease), as `complete` / `completeInOrder` do, fenced the same way: false, changing nothing, if the token no longer
   * holds a live lease on the key (or the object). The caller then rolls the transaction back.
   */
  completeWithin(
    statements: TransactionStatements,
    key: string,
    token: string,
    ttlMs: number,
    order?: ObjectPosition,
  ): Promise<boolean>;
  /**
   * In the transaction, as its first statement: claims the key by marking it done for `ttlMs`, unless it is done
   * already (`"done"`) or held, by a claim or by another open transaction (`"in-flight"`, answered at once: nothing
   * waits on the other). Held until the transaction ends, the mark needs no lease: a commit keeps it, a rollback (or
   * the connection dropping with the process) removes it.
   */
  claimWithin(statements: TransactionStatements, key: string, ttlMs: number): Promise<"claimed" | "done" | "in-flight">;
  /**
   * In the transaction: marks a key nobody claimed done for `ttlMs` (a worker's inbox row), unless it is done or held
   * already: then false. Taken first in the transaction, the row also makes a second run of the same job wait for the
   * first to commit or roll back.
   */
  enterWithin(statements: TransactionStatements, key: string, ttlMs: number): Promise<boolean>;
}

/** The store, if it can join a transaction; a TypeError naming the fix otherwise (a setup error, not a 500 per event). */
export function requireTransactionalStore(store: DeliveryStore | undefined, who: string): TransactionalStore {
  const joinable = store as Partial<TransactionalStore> | undefined;
  if (
    typeof joinable?.completeWithin === "function" &&
    typeof joinable.claimWithin === "function" &&
    typeof joinable.enterWithin === "function" &&
    typeof joinable.setup === "function"
  ) {
    return store as TransactionalStore;
  }
  const fix = "Use PostgresStore (@tidings/postgres) on the same database as the transactions.";
  if (!store) throw new TypeError(`${who}: \`transactions\` needs \`store\`, which holds the done marks. ${fix}`);
  const name = (store as { constructor?: { name?: string } }).constructor?.name || "The store";
  throw new TypeError(
    `${who}: \`transactions\` needs a store that can mark deliveries done inside the transaction; ${name} cannot. ${fix}`,
  );
}

/** Checks `transactions` at setup: an object with `run`, as `@tidings/postgres` makes them. */
export function checkTransactions<Tx>(transactions: Transactions<Tx>, who: string): Transactions<Tx> {
  if (typeof (transactions as Partial<Transactions<Tx>> | null)?.run !== "function") {
    throw new TypeError(
      `${who}: \`transactions\` must be made by @tidings/postgres (pgTransactions, pgliteTransactions or transactionsOf)`,
    );
  }
  return transactions;
}

/** Thrown inside a delivery's transaction when a handler failed, to roll it back; carries what the handlers threw. */
export class HandlersFailed {
  constructor(readonly failures: unknown[]) {}
}

/** Thrown inside a delivery's transaction when its claim there was not granted, to roll it back. */
export class NotClaimed {
  constructor(readonly state: "done" | "in-flight") {}
}

/** Thrown inside a delivery's transaction when its done mark was refused (the lease lapsed), to roll it back. */
export const LEASE_LAPSED: unique symbol = Symbol("lease lapsed");
