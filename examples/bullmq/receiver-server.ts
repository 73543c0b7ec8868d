import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { serverConfig } from "../shared/config";
import { createApp } from "./receiver";

const { secret, port, host } = serverConfig();
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
const queue = process.env.QUEUE ?? "deliveries";
const { app } = createApp({ secret, redis, queue });
const server = app.listen(port, host, (error) => {
  if (error) throw error;
  const { port: bound } = server.address() as AddressInfo;
  console.log(`Express receiver on http://${host}:${bound}: POST /webhooks → queue ${queue}, GET /messages/:id`);
});
