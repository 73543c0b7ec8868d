import { RedisStore } from "@tidings/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { RedisServer } from "../support/redis-server";
import { describeStoreContract } from "./contract";

let server: RedisServer;
let client: Redis;

beforeAll(async () => {
  server = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: server.port, lazyConnect: false });
});

afterAll(async () => {
  client.disconnect();
  await server.stop();
});

describeStoreContract("RedisStore", () => new RedisStore({ client, prefix: `contract:${Math.random()}:` }));
