/** The receiving side of the hostile-request benchmark: an Express app with the webhook, reporting its own CPU time. */
import type { AddressInfo } from "node:net";
import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { serveCommands } from "../lib/children";

const receiver = createReceiver({ secret: "whsec_bench_hostile", logger: { error() {} } });
const app = express();
app.post("/webhooks", webhookMiddleware(receiver));
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));

serveCommands({
  port: () => (server.address() as AddressInfo).port,
  /** User + system CPU time of this process so far, in microseconds. */
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
});
