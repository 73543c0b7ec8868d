/** The order suite's routes: per store, the same Express route with and without `order`. */
export const STORES = ["memory", "redis", "postgres"] as const;
export type StoreId = (typeof STORES)[number];
export type OrderRoute = `${StoreId}` | `${StoreId}-ordered`;
export const ORDER_ROUTES: readonly OrderRoute[] = STORES.flatMap((store) => [store, `${store}-ordered` as const]);
export const STORE_LABELS: Record<StoreId, string> = {
  memory: "MemoryStore",
  redis: "RedisStore (redis-server on loopback)",
  postgres: "PostgresStore (PostgreSQL 15 on loopback)",
};
