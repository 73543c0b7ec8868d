import Fastify from "fastify";
import { afterEach, expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import tidings from "../src";

// The URL a scheme that signs it (Twilio's way) is given: what the sender called, query as sent.

const app = Fastify({ rewriteUrl: (req) => (req.url ?? "/").replace(/^\/api\//, "/") });
afterEach(() => app.close());

it("hands over the URL called, before rewriteUrl changed it, and takes a GET through the plugin's route", async () => {
  await app.register(tidings, { receiver: urlEchoReceiver(), path: "/webhooks" });

  const response = await app.inject({
    method: "GET",
    url: "/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb",
    headers: { host: "hooks.test:8080" },
  });

  expect([response.statusCode, response.body]).toEqual([
    200,
    "http://hooks.test:8080/api/webhooks?to=+15551234&note=caf%C3%A9&path=a%2Fb",
  ]);
});
