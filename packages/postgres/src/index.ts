export type { InTransaction, Transactions } from "@tidings/core/adapter";
export { PostgresStore, type PostgresStoreOptions, type Queryable } from "./postgres-store";
export {
  type PgliteLike,
  type PgPoolLike,
  type PgTransactionClient,
  pgliteTransactions,
  pgTransactions,
  type TransactionHook,
  transactionsOf,
} from "./transactions";
