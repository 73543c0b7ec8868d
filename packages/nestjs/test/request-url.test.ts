import { Module } from "@nestjs/common";
import { TidingsModule } from "@tidings/nestjs";
import express from "express";
import { afterEach, expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { type RunningNestApp, startNestApp } from "./nest-app";

// The URL a scheme that signs it (Twilio's way) is given: what the sender called, before any rewrite, query as sent.

const QUERY = "?to=+15551234&note=caf%C3%A9&path=a%2Fb";

let running: RunningNestApp | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function appModule() {
  @Module({ imports: [TidingsModule.forRoot({ receiver: urlEchoReceiver(), path: "/webhooks" })] })
  class AppModule {}
  return AppModule;
}

async function echoed(path: string): Promise<[number, string]> {
  const response = await fetch((running as RunningNestApp).url(path));
  return [response.status, await response.text()];
}

it("on Express, hands over the URL called when middleware on the instance rewrote req.url", async () => {
  const rewriting = express().use((req, _res, next) => {
    if (req.url.startsWith("/api/")) req.url = req.url.slice("/api".length);
    next();
  });
  running = await startNestApp("express", appModule(), { expressServer: rewriting });
  expect(await echoed(`/api/webhooks${QUERY}`)).toEqual([200, running.url(`/api/webhooks${QUERY}`)]);
});

it("on Fastify, hands over the URL called before rewriteUrl changed it", async () => {
  const rewriteUrl = (req: { url?: string | undefined }) => (req.url ?? "/").replace(/^\/api\//, "/");
  running = await startNestApp("fastify", appModule(), { fastifyOptions: { rewriteUrl } });
  expect(await echoed(`/api/webhooks${QUERY}`)).toEqual([200, running.url(`/api/webhooks${QUERY}`)]);
});
