export { PostgresStore, type PostgresStoreOptions, type Queryable } from "./postgres-store";
