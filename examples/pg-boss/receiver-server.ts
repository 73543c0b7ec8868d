import { serverConfig } from "../shared/config";
import { startBoss } from "./boss";
import { createApp } from "./receiver";

const { secret, port, host } = serverConfig();
const queue = process.env.QUEUE ?? "deliveries";
const app = await createApp({ secret, boss: await startBoss(), queue });
const address = await app.listen({ port, host });
console.log(`Fastify receiver on ${address}: POST /webhooks → queue ${queue}, GET /messages/:id`);
