import { serve } from "@hono/node-server";
import { serverConfig } from "../shared/config";
import { createApp } from "./app";

const { secret, port, host } = serverConfig();
serve({ fetch: createApp({ secret }).fetch, port, hostname: host }, (info) => {
  console.log(`Hono receiver on http://${host}:${info.port}: POST /webhooks, GET /messages/:id`);
});
