import type { AddressInfo } from "node:net";
import { listenConfig } from "../shared/config";
import { createApp } from "./app";
import { createPool } from "./database";
import { createSecretTable } from "./secrets";

const { port, host } = listenConfig();
const pool = createPool();
await createSecretTable(pool);
const server = createApp({ pool }).listen(port, host, (error) => {
  if (error) throw error;
  const { port: bound } = server.address() as AddressInfo;
  console.log(
    `Multi-endpoint receiver on http://${host}:${bound}: POST /webhooks/:account, GET /accounts/:account/messages/:id`,
  );
});
