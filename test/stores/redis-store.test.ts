import { RedisStore } from "@tidings/redis";
import { Redis as Redis5 } from "ioredis";
import { Redis as Redis6 } from "ioredis6";
import { afterAll, beforeAll } from "vitest";
import { RedisServer } from "../support/redis-server";
import { describeStoreContract } from "./contract";

// The peer range is ^5.4.0 || ^6.0.0: the contract holds with a client of either major, and both type-check.
const MAJORS = {
  "ioredis 5": (port: number) => new Redis5({ host: "127.0.0.1", port }),
  "ioredis 6": (port: number) => new Redis6({ host: "127.0.0.1", port }),
};
type Major = keyof typeof MAJORS;
let server: RedisServer;
const clients = new Map<Major, Redis5 | Redis6>();
// A second connection per major, for the second instance of a race.
const twinClients = new Map<Major, Redis5 | Redis6>();
const prefixes = new WeakMap<object, string>();

beforeAll(async () => {
  server = await RedisServer.start();
  for (const [major, connect] of Object.entries(MAJORS) as [Major, (port: number) => Redis5 | Redis6][]) {
    clients.set(major, connect(server.port));
    twinClients.set(major, connect(server.port));
  }
});

afterAll(async () => {
  for (const client of [...clients.values(), ...twinClients.values()]) client.disconnect();
  await server.stop();
});

for (const major of Object.keys(MAJORS) as Major[]) {
  describeStoreContract(
    `RedisStore on ${major}`,
    () => {
      const client = clients.get(major);
      if (!client) throw new Error(`no ${major} client`);
      const prefix = `contract:${Math.random()}:`;
      const store = new RedisStore({ client, prefix });
      prefixes.set(store, prefix);
      return store;
    },
    {
      twin: (store) => {
        const client = twinClients.get(major);
        if (!client) throw new Error(`no second ${major} client`);
        return new RedisStore({ client, prefix: prefixes.get(store) ?? "" });
      },
    },
  );
}
