import { request } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpBindings } from "@hono/node-server";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { createFetchHandler } from "../src";

// The URL a scheme that signs it (Twilio's way) is given: the one the client called, query as sent.

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A Hono app on @hono/node-server, the webhook mounted as `mount` says; resolves with its URL. */
function listen(app: Hono<{ Bindings: HttpBindings }>): Promise<string> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
      resolve(`http://127.0.0.1:${info.port}`);
    });
    closers.push(() => server.close());
  });
}

/** GETs `path` with node:http, which sends `'` and `"` as they are. */
function get(base: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
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
}

const SENT = `/api/webhooks?name=O'Brien&q="a"&to=+1555&note=caf%C3%A9`;

it("is the Request's URL under app.route's prefix, which the Request's URL keeps", async () => {
  const handle = createFetchHandler(urlEchoReceiver());
  const api = new Hono<{ Bindings: HttpBindings }>().all("/webhooks", (c) => handle(c.req.raw));
  const base = await listen(new Hono<{ Bindings: HttpBindings }>().route("/api", api));
  expect(await get(base, SENT)).toBe(`${base}/api/webhooks?name=O%27Brien&q=%22a%22&to=+1555&note=caf%C3%A9`);
});

it("is the bytes as sent with pathAndQuery from @hono/node-server's incoming request", async () => {
  const handle = createFetchHandler(urlEchoReceiver());
  const api = new Hono<{ Bindings: HttpBindings }>().all("/webhooks", (c) =>
    handle(c.req.raw, { pathAndQuery: c.env.incoming.url }),
  );
  const base = await listen(new Hono<{ Bindings: HttpBindings }>().route("/api", api));
  expect(await get(base, SENT)).toBe(base + SENT);
});
