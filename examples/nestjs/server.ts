import { serverConfig } from "../shared/config";
import { createApp } from "./app";

const { secret, port, host } = serverConfig();
const platform = process.env.PLATFORM === "fastify" ? "fastify" : "express";
const app = await createApp({ secret }, platform);
await app.listen(port, host);
console.log(`NestJS (${platform}) receiver on ${await app.getUrl()}: POST /webhooks, GET /messages/:id`);
