/**
 * The order suite's server: one Express app, a Receiver per route (routes.ts), each with its own store; the ordered
 * routes add `order: messageStatusOrder`. argv: redis port, PostgreSQL URL.
 */
import { createReceiver, type DeliveryStore, MemoryStore, messageStatusOrder } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import { PostgresStore } from "@tidings/postgres";
import { RedisStore } from "@tidings/redis";
import express from "express";
import { Redis } from "ioredis";
import pg from "pg";
import { listen } from "../http/apps/listen";
import { serveCommands } from "../lib/children";
import { EVENT_TYPE, SECRET } from "../lib/deliveries";
import { ORDER_ROUTES, type OrderRoute, type StoreId } from "./routes";

const [redisPort, postgresUrl] = process.argv.slice(2);
const redis = new Redis({ host: "127.0.0.1", port: Number(redisPort) });
const pool = new pg.Pool({ connectionString: postgresUrl, max: 8 });
const noneHandled = () => Object.fromEntries(ORDER_ROUTES.map((route) => [route, 0])) as Record<OrderRoute, number>;
let handled = noneHandled();

function storeFor(store: StoreId, route: OrderRoute): DeliveryStore {
  if (store === "memory") return new MemoryStore({ maxEntries: 500_000 });
  if (store === "redis") return new RedisStore({ client: redis, prefix: `bench-${route}:` });
  return new PostgresStore({ client: pool, table: `bench_${route.replace("-", "_")}` });
}

async function start(): Promise<{ port: number }> {
  const app = express();
  for (const route of ORDER_ROUTES) {
    const store = storeFor(route.replace("-ordered", "") as StoreId, route);
    if (store instanceof PostgresStore) await store.setup();
    const ordered = route.endsWith("-ordered");
    const receiver = createReceiver({ secret: SECRET, store, ...(ordered && { order: messageStatusOrder }) }).on(
      EVENT_TYPE,
      () => {
        handled[route]++;
      },
    );
    app.post(`/${route}`, webhookMiddleware(receiver));
  }
  const running = await listen(app);
  return { port: running.port };
}

serveCommands({
  start,
  "measure-begin": () => {
    handled = noneHandled();
    return {};
  },
  "measure-end": () => ({ handled }),
});
