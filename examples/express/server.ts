import type { AddressInfo } from "node:net";
import { serverConfig } from "../shared/config";
import { createApp } from "./app";

const { secret, port, host } = serverConfig();
const server = createApp({ secret }).listen(port, host, (error) => {
  if (error) throw error;
  const { port: bound } = server.address() as AddressInfo;
  console.log(`Express receiver on http://${host}:${bound}: POST /webhooks, GET /messages/:id`);
});
