import express from "express";
import supertest from "supertest";
import { expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { webhookMiddleware } from "../src";
import { listen } from "./helpers";

// The URL a scheme that signs it (Twilio's way) is given: what the sender called, mount path and query as sent.

it("hands over the URL called under a router's mount path, the query byte for byte", async () => {
  const app = express();
  app.use("/api", express.Router().all("/webhooks", webhookMiddleware(urlEchoReceiver())));
  const server = await listen(app);
  const { port } = server.address() as { port: number };

  const response = await supertest(server).get("/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb");

  expect([response.status, response.text]).toEqual([
    200,
    `http://127.0.0.1:${port}/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb`,
  ]);
});

it("passes a GET through to the Receiver on a route mounted with app.get beside app.post", async () => {
  const app = express();
  const handle = webhookMiddleware(urlEchoReceiver({ publicUrl: "https://hooks.example.com" }));
  app.get("/webhooks", handle);
  app.post("/webhooks", handle);

  const response = await supertest(await listen(app)).get("/webhooks?challenge=1");

  expect([response.status, response.text]).toEqual([200, "https://hooks.example.com/webhooks?challenge=1"]);
});
