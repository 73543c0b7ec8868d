import { serverConfig } from "../shared/config";
import { createApp } from "./app";

const { secret, port, host } = serverConfig();
const server = createApp({ secret }).listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  console.log(`Koa receiver on http://${host}:${bound}: POST /webhooks, GET /messages/:id`);
});
