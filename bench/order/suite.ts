/**
 * What `order` costs: instructions per request of the same Express route with and without `order`, on each store,
 * counted by callgrind in one server process (the routes take turns, window by window). The database servers' own
 * work is not counted: only what the receiver's process spends, client libraries included.
 */
import { PostgresServer } from "../../test/support/postgres-server";
import { RedisServer } from "../../test/support/redis-server";
import { SERVER_CPU } from "../http/fleet";
import { CallgrindChild } from "../instructions/callgrind-child";
import { countRoutes } from "../instructions/measure";
import type { InstructionSettings } from "../lib/options";
import { type Pair, pairOf } from "../lib/stats";
import { ORDER_ROUTES, STORES, type StoreId } from "./routes";

/** Base: the route without `order`; ours: with it. The target (≤ 1.10 on MemoryStore) is judged on the minima. */
export interface OrderCost extends Pair {
  store: StoreId;
}

export interface OrderResults {
  settings: InstructionSettings;
  costs: OrderCost[];
}

export async function runOrderSuite(settings: InstructionSettings, log: (line: string) => void): Promise<OrderResults> {
  const [redis, postgres] = await Promise.all([RedisServer.start(), PostgresServer.start()]);
  const server = new CallgrindChild("order/server.ts", { cpu: SERVER_CPU, args: [String(redis.port), postgres.url] });
  try {
    const { windows } = await countRoutes(server, ORDER_ROUTES, (route) => `/${route}`, settings);
    const costs = STORES.map((store): OrderCost => {
      const cost = { store, ...pairOf(windows.get(store) ?? [], windows.get(`${store}-ordered`) ?? []) };
      log(
        `order ${store}: ordered ÷ plain ${cost.ratio.toFixed(3)} (minima), ${cost.medianRatio.toFixed(3)} (medians)`,
      );
      return cost;
    });
    return { settings, costs };
  } finally {
    await server.stop();
    await Promise.all([redis.remove(), postgres.remove()]);
  }
}
