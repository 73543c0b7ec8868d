export { RedisStore, type RedisStoreOptions } from "./redis-store";
