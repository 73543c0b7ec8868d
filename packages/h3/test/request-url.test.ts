import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { H3, serve } from "h3";
import { createApp, createRouter, toNodeListener } from "h3-v1";
import { afterEach, expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { defineWebhookHandler } from "../src/index";

// The URL a scheme that signs it (Twilio's way) is given: what the sender called, mount prefix and query as sent.

const CALLED = "/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb";

const closers: (() => Promise<void>)[] = [];
afterEach(() => Promise.all(closers.splice(0).map((close) => close())));

async function echoed(base: string): Promise<[number, string]> {
  const response = await fetch(new URL(CALLED, base));
  return [response.status, await response.text()];
}

it("on h3 v1, hands over the URL called under app.use's prefix, which h3 strips from req.url", async () => {
  const router = createRouter().use("/webhooks", defineWebhookHandler(urlEchoReceiver()));
  const server: Server = createServer(toNodeListener(createApp().use("/api", router.handler))).listen(0, "127.0.0.1");
  closers.push(() => new Promise((done) => server.close(() => done())));
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect(await echoed(base)).toEqual([200, base + CALLED]);
});

it("on h3 v2, hands over the URL called under a mounted app's prefix", async () => {
  const sub = new H3().all("/webhooks", defineWebhookHandler(urlEchoReceiver()));
  const server = serve(new H3().mount("/api", sub), { port: 0, hostname: "127.0.0.1", silent: true });
  closers.push(() => server.close(true));
  await server.ready();
  const base = (server.url as string).replace(/\/$/, "");
  expect(await echoed(base)).toEqual([200, base + CALLED]);
});

it("on h3 v2 on Node, hands over the bytes of the query as sent, which the Web Request's URL re-encodes", async () => {
  const server = serve(new H3().all("/webhooks", defineWebhookHandler(urlEchoReceiver())), {
    port: 0,
    hostname: "127.0.0.1",
    silent: true,
  });
  closers.push(() => server.close(true));
  await server.ready();
  const base = (server.url as string).replace(/\/$/, "");
  const path = `/webhooks?name=O'Brien&q="a"&p=<b>`;
  const answer = await new Promise<string>((resolve, reject) => {
    request(new URL(base), { path }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () => resolve(text));
    })
      .on("error", reject)
      .end();
  });
  expect(answer).toBe(base + path);
});
