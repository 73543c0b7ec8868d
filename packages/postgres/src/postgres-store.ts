import type {
  ClaimResult,
  ObjectPosition,
  OrderedClaimResult,
  TransactionalStore,
  TransactionStatements,
} from "@tidings/core/adapter";
import { textKey } from "./key";
import { type Names, namesOf, schemaSql, statements } from "./schema";

/**
 * What the store needs of a database client: node-postgres's `Pool` and `Client`, and PGlite, all have it.
 *
 * @example
 * ```ts
 * import { PostgresStore, type Queryable } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, query_timeout: 2000 });
 * // A client of your own that logs slow statements, then passes them on.
 * const timed: Queryable = {
 *   async query(text, params) {
 *     const started = Date.now();
 *     const result = await pool.query(text, params);
 *     if (Date.now() - started > 200) console.warn(`slow: ${text.slice(0, 60)}`);
 *     return result;
 *   },
 * };
 * export const store = new PostgresStore({ client: timed });
 * ```
 */
export interface Queryable {
  query(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount?: number | null; affectedRows?: number }>;
  /** PGlite's way of running several statements at once; node-postgres runs them through `query`. */
  exec?(text: string): Promise<unknown>;
}

/**
 * The store's database client, and where and how its tables are kept.
 *
 * @example
 * ```ts
 * import { PostgresStore, type PostgresStoreOptions } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const options: PostgresStoreOptions = {
 *   client: new pg.Pool({ connectionString: process.env.DATABASE_URL, query_timeout: 2000 }),
 *   schema: "webhooks", // webhooks.tidings_deliveries and webhooks.tidings_positions
 *   purgeEvery: 0, // expired rows are deleted by a job of yours: `await store.purge()`
 * };
 * export const store = new PostgresStore(options);
 * ```
 */
export interface PostgresStoreOptions {
  /** A node-postgres `Pool` (or `Client`), or a PGlite instance for an embedded, single-instance store. */
  client: Queryable;
  /** Base name of the two tables (`<table>_deliveries`, `<table>_positions`) and the function. Default `"tidings"`. */
  table?: string;
  /** Schema to create them in. Default: the connection's `search_path` (usually `public`). */
  schema?: string;
  /** Every this many claims, up to this many expired rows are deleted. Default 1000; 0 turns it off (call `purge`). */
  purgeEvery?: number;
}

/**
 * A DeliveryStore on PostgreSQL: the dedup claims and, with `order`, each object's handled position and lease, in two
 * tables it creates on first use. Every step is one statement, acting only while the caller's token owns the key;
 * times are the database's clock, so instances with drifting clocks agree.
 *
 * @example
 * ```ts
 * import { createReceiver, messageStatusOrder } from "@tidings/core";
 * import { PostgresStore } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, query_timeout: 2000 });
 * const store = new PostgresStore({ client: pool });
 * await store.setup(); // creates the tables if missing; fails early if the database is down
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, store, order: messageStatusOrder });
 * receiver.on(["message.sent", "message.delivered", "message.failed"], async (event) => {
 *   // Per message, one event at a time and never an older status after a newer one.
 *   await pool.query("update messages set status = $1 where id = $2", [event.data.status, event.data.id]);
 * });
 * ```
 */
export class PostgresStore implements TransactionalStore {
  readonly #client: Queryable;
  readonly #names: Names;
  readonly #sql: ReturnType<typeof statements>;
  readonly #purgeEvery: number;
  #ready: Promise<void> | undefined;
  /** Once the schema is there, the steps go straight to their statement instead of awaiting `#ready` each time. */
  #isSetUp = false;
  #claims = 0;

  constructor(options: PostgresStoreOptions) {
    if (typeof options?.client?.query !== "function") {
      throw new TypeError("PostgresStore needs { client }: a pg Pool or Client, or a PGlite instance");
    }
    this.#client = options.client;
    this.#names = namesOf(options.table ?? "tidings", options.schema);
    this.#sql = statements(this.#names);
    const purgeEvery = options.purgeEvery ?? 1000;
    if (!Number.isSafeInteger(purgeEvery) || purgeEvery < 0) {
      throw new TypeError("purgeEvery must be a whole number ≥ 0");
    }
    this.#purgeEvery = purgeEvery;
  }

  /** Creates the tables and the function if they are missing. Called before the first step; call it at start-up to fail early. */
  setup(): Promise<void> {
    this.#ready ??= this.#createSchema().then(
      () => {
        this.#isSetUp = true;
      },
      (error: unknown) => {
        this.#ready = undefined; // the next call tries again: the database may just have been down
        throw error;
      },
    );
    return this.#ready;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimResult> {
    const token = crypto.randomUUID();
    const [row] = await this.#query(this.#sql.claim, [textKey(key), token, leaseMs]);
    this.#countClaim();
    if (row?.claimed === true) return { state: "claimed", token };
    return { state: row?.done === true ? "done" : "in-flight" };
  }

  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.#count(this.#sql.complete, [textKey(key), token, ttlMs])) === 1;
  }

  async release(key: string, token: string): Promise<boolean> {
    return (await this.#count(this.#sql.release, [textKey(key), token])) === 1;
  }

  /** Extends a claim the token still holds (with `order`, the object's lease too) to `leaseMs` from now: one statement. */
  async renew(key: string, token: string, leaseMs: number, order?: ObjectPosition): Promise<boolean> {
    if (order === undefined) return (await this.#count(this.#sql.renew, [textKey(key), token, leaseMs])) === 1;
    const [row] = await this.#query(this.#sql.renewInOrder, [textKey(key), token, leaseMs, textKey(order.object)]);
    return row?.n === 1;
  }

  /** One statement: a function that holds the object's row lock while it decides (see `DeliveryStore`). */
  async claimInOrder(key: string, leaseMs: number, order: ObjectPosition, ttlMs: number): Promise<OrderedClaimResult> {
    const token = crypto.randomUUID();
    const params = [textKey(key), token, leaseMs, textKey(order.object), order.position, ttlMs];
    const [row] = await this.#query(this.#sql.claimInOrder, params);
    this.#countClaim();
    const state = row?.state as OrderedClaimResult["state"];
    return state === "claimed" ? { state, token } : { state };
  }

  async completeInOrder(key: string, token: string, ttlMs: number, order: ObjectPosition): Promise<boolean> {
    const params = [textKey(key), token, ttlMs, textKey(order.object), order.position];
    const [row] = await this.#query(this.#sql.completeInOrder, params);
    return row?.n === 1;
  }

  async releaseInOrder(key: string, token: string, order: ObjectPosition): Promise<boolean> {
    const [row] = await this.#query(this.#sql.releaseInOrder, [textKey(key), token, textKey(order.object)]);
    return row?.n === 1;
  }

  /**
   * Inside the app's transaction (`transactions` on the Receiver or worker): marks the key done, and with `order`
   * moves the object's position, fenced as `complete` and `completeInOrder` are. One statement.
   */
  async completeWithin(
    statements: TransactionStatements,
    key: string,
    token: string,
    ttlMs: number,
    order?: ObjectPosition,
  ): Promise<boolean> {
    if (!this.#isSetUp) await this.setup();
    const [row] =
      order === undefined
        ? await statements.query(this.#sql.completeWithin, [textKey(key), token, ttlMs])
        : await statements.query(this.#sql.completeInOrderWithin, [
            textKey(key),
            token,
            ttlMs,
            textKey(order.object),
            order.position,
          ]);
    return row?.n === 1;
  }

  /**
   * Inside a Receiver's transaction, first: the key claimed by marking it done, unless it is done, claimed, or being
   * claimed by another open transaction (found by a transaction-scoped advisory lock, so nothing waits). One statement.
   */
  async claimWithin(
    statements: TransactionStatements,
    key: string,
    ttlMs: number,
  ): Promise<"claimed" | "done" | "in-flight"> {
    if (!this.#isSetUp) await this.setup();
    const [row] = await statements.query(this.#sql.claimWithin, [textKey(key), ttlMs]);
    return row?.state === "claimed" || row?.state === "done" ? row.state : "in-flight";
  }

  /** Inside a worker's transaction: the job's inbox row, unless the key is done (or held) already. One statement. */
  async enterWithin(statements: TransactionStatements, key: string, ttlMs: number): Promise<boolean> {
    if (!this.#isSetUp) await this.setup();
    const [row] = await statements.query(this.#sql.enterWithin, [textKey(key), ttlMs]);
    return row?.n === 1;
  }

  /** Deletes up to `limit` expired claims, done keys and forgotten positions each; resolves with how many. */
  async purge(limit = 10_000): Promise<number> {
    const [row] = await this.#query(this.#sql.purge, [limit]);
    return Number(row?.n ?? 0);
  }

  async #createSchema(): Promise<void> {
    const sql = schemaSql(this.#names);
    // Several statements: node-postgres runs them as one implicit transaction through the simple protocol.
    await (this.#client.exec ? this.#client.exec(sql) : this.#client.query(sql));
  }

  async #query(text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    if (!this.#isSetUp) await this.setup();
    return (await this.#client.query(text, params)).rows;
  }

  async #count(text: string, params: unknown[]): Promise<number> {
    if (!this.#isSetUp) await this.setup();
    const result = await this.#client.query(text, params);
    return result.rowCount ?? result.affectedRows ?? 0;
  }

  #countClaim(): void {
    if (this.#purgeEvery === 0 || ++this.#claims % this.#purgeEvery !== 0) return;
    this.purge().catch(() => {}); // best effort: the next round tries again
  }
}
