/**
 * What `order` costs: instructions per request of the same Express route with and without `order`, on each store,
 * counted by callgrind in one server process (the routes take turns, window by window). The database servers' own
 * work is not counted: only what the receiver's process spends, client libraries included.
 */
import { Agent } from "node:http";
import { PostgresServer } from "../../test/support/postgres-server";
import { RedisServer } from "../../test/support/redis-server";
import { DeliveryFactory } from "../http/deliveries";
import { SERVER_CPU } from "../http/fleet";
import { CallgrindChild } from "../instructions/callgrind-child";
import { postDeliveries } from "../instructions/post";
import { countInTurns } from "../instructions/turns";
import type { InstructionSettings } from "../lib/options";
import { type Summary, summarize } from "../lib/stats";
import { ORDER_ROUTES, type OrderRoute, STORES, type StoreId } from "./routes";

const CONNECTIONS = 4;

export interface OrderCost {
  store: StoreId;
  plain: Summary;
  ordered: Summary;
  /** Ordered ÷ plain of the quietest windows (the minima); the target (≤ 1.10 on MemoryStore) is judged on it. */
  ratio: number;
  medianRatio: number;
}

export interface OrderResults {
  settings: InstructionSettings;
  costs: OrderCost[];
}

export async function runOrderSuite(settings: InstructionSettings, log: (line: string) => void): Promise<OrderResults> {
  const [redis, postgres] = await Promise.all([RedisServer.start(), PostgresServer.start()]);
  const server = new CallgrindChild("order/server.ts", {
    cpu: SERVER_CPU,
    args: [String(redis.port), postgres.url],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const factory = new DeliveryFactory(2048, `order-${process.pid}`);
  try {
    const { port } = await server.call<{ port: number }>("start");
    const send = async (route: OrderRoute, amount: number) => {
      await server.call("measure-begin");
      await postDeliveries(agent, CONNECTIONS, port, `/${route}`, factory, amount);
      const { handled } = await server.call<{ handled: Record<OrderRoute, number> }>("measure-end");
      if (handled[route] !== amount) throw new Error(`${route}: ${handled[route]}/${amount} handled`);
    };
    const { windows } = await countInTurns(
      new Map(ORDER_ROUTES.map((route) => [route, server])),
      settings,
      false,
      send,
    );
    const costs = STORES.map((store): OrderCost => {
      const plain = summarize(windows.get(store) ?? []);
      const ordered = summarize(windows.get(`${store}-ordered`) ?? []);
      const cost = {
        store,
        plain,
        ordered,
        ratio: ordered.min / plain.min,
        medianRatio: ordered.median / plain.median,
      };
      log(
        `order ${store}: ordered ÷ plain ${cost.ratio.toFixed(3)} (minima), ${cost.medianRatio.toFixed(3)} (medians)`,
      );
      return cost;
    });
    return { settings, costs };
  } finally {
    agent.destroy();
    await server.stop();
    await Promise.all([redis.remove(), postgres.remove()]);
  }
}
