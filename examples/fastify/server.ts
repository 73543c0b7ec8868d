import { serverConfig } from "../shared/config";
import { createApp } from "./app";

const { secret, port, host } = serverConfig();
const app = await createApp({ secret });
const address = await app.listen({ port, host });
console.log(`Fastify receiver on ${address}: POST /webhooks, GET /messages/:id`);
