import type { IncomingMessage, ServerResponse } from "node:http";
import { expect, it } from "vitest";
import { listen } from "../../../test/support/node-app";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { createPagesHandler, createRouteHandler } from "../src/index";

// The URL a scheme that signs it (Twilio's way) is given: the one the client called, query as sent.

const CALLED = "/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb";

it("in the App Router, is the Host the client called, not the host Next.js names in request.url", async () => {
  const handle = createRouteHandler(urlEchoReceiver());
  // What `next start` hands a route handler called at http://hooks.example.com:8080 + CALLED.
  const request = new Request(`http://localhost:3000${CALLED}`, { headers: { host: "hooks.example.com:8080" } });
  const response = await handle(request);
  expect([response.status, await response.text()]).toEqual([200, `http://hooks.example.com:8080${CALLED}`]);
});

it("in the Pages Router, is req.url on the Host called", async () => {
  const handle = createPagesHandler(urlEchoReceiver());
  const server = await listen((req: IncomingMessage, res: ServerResponse) => void handle(req, res));
  const { port } = server.address() as { port: number };
  const response = await fetch(`http://127.0.0.1:${port}${CALLED}`);
  expect([response.status, await response.text()]).toEqual([200, `http://127.0.0.1:${port}${CALLED}`]);
});
