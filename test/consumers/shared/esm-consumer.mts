// A consumer of the PACKED packages, ESM. The same source is checked under TypeScript's "bundler" resolution
// (esm-bundler: Vite, esbuild, webpack projects) and "nodenext" (esm-nodenext: ESM on Node); run.mjs copies it in.
// Type-checked by tsc (strict), then run by node. See ../README.md.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  constructEvent,
  createReceiver,
  type ErrorCode,
  sign,
  verify,
  verifyAsync,
  WebhookVerificationError,
} from "@tidings/core";
import { captureRawBody, webhookMiddleware } from "@tidings/express";
import tidings from "@tidings/fastify";
import { createFetchHandler } from "@tidings/fetch";
import { defineWebhookHandler } from "@tidings/h3";
import { webhookMiddleware as koaWebhookMiddleware } from "@tidings/koa";
import { createLambdaHandler } from "@tidings/lambda";
import { OnDelivery, TIDINGS_RECEIVER, TidingsModule } from "@tidings/nestjs";
import { createPagesHandler, createRouteHandler } from "@tidings/next";
import { instrument } from "@tidings/opentelemetry";
import { RedisStore } from "@tidings/redis";
import express from "express";
import Fastify from "fastify";
import { H3 } from "h3";
import { Redis } from "ioredis";
import "reflect-metadata";
import { Inject, Injectable, Module } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter } from "@nestjs/platform-express";
import { FastifyAdapter } from "@nestjs/platform-fastify";
import { metrics, trace } from "@opentelemetry/api";
import type { MessageEvents, Receiver } from "@tidings/core";

const SECRET = "whsec_consumer";

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`consumer check failed: ${what}`);
  console.log(`  ✓ ${what}`);
}

function errorCode(error: unknown): ErrorCode | undefined {
  return error instanceof WebhookVerificationError ? error.code : undefined;
}

function eventBody(n: number): string {
  return JSON.stringify({
    id: `evt_${n}`,
    type: "message.delivered",
    data: { id: `msg_${n}`, status: "delivered", channel: "sms" },
  });
}

/** Event n as the messaging service POSTs it. */
function delivery(n: number): { method: string; headers: Record<string, string>; body: string } {
  const body = eventBody(n);
  return {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) },
    body,
  };
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// The ESM build of the installed tarball, not the repository's sources.
const resolved = import.meta.resolve("@tidings/core");
check(/\/node_modules\/@tidings\/core\/dist\/index\.js$/.test(resolved), "import resolves to the packed ESM build");

// @tidings/core
const body = eventBody(0);
const header = sign(body, SECRET);
check(verify(body, header, SECRET).secretIndex === 0, "core: verify (sync)");
check((await verifyAsync(body, header, ["whsec_old", SECRET])).secretIndex === 1, "core: verifyAsync, rotated secrets");
check(constructEvent(body, header, SECRET).type === "message.delivered", "core: constructEvent");
try {
  verify(`${body} `, header, SECRET);
  check(false, "core: a tampered body throws");
} catch (error) {
  check(
    errorCode(error) === "signature_mismatch",
    "core: tampered body -> WebhookVerificationError signature_mismatch",
  );
}

const handled: string[] = [];
const receiver = createReceiver({ secret: SECRET }).on("message.delivered", (event) => {
  const channel: "sms" | "email" | "push" = event.data.channel;
  handled.push(`${event.data.id}/${channel}`);
});
// @ts-expect-error the event types are the package's, not `any`: a misspelled type does not compile
receiver.on("message.delivred", () => {});

// @tidings/fetch and @tidings/next (App Router): Request in, Response out.
const handle = createFetchHandler(receiver);
const first = await handle(new Request("http://127.0.0.1/webhooks", delivery(1)));
const replay = await handle(new Request("http://127.0.0.1/webhooks", delivery(1)));
check(first.status === 200 && (await replay.json()).duplicate === true, "fetch: 200, then 200 duplicate on replay");
const routed = await createRouteHandler(receiver)(new Request("http://127.0.0.1/webhooks", delivery(2)));
check(routed.status === 200, "next: createRouteHandler answers 200");

// @tidings/express over real HTTP, express from the consumer's own node_modules.
const app = express();
app.post("/webhooks", webhookMiddleware(receiver));
app.use(express.json({ verify: captureRawBody }));
const expressServer = createServer(app);
const viaExpress = await fetch(`${await listen(expressServer)}/webhooks`, delivery(3));
expressServer.close();
check(viaExpress.status === 200, "express: webhookMiddleware answers 200 over HTTP");

// @tidings/fastify, registered as a plugin.
const fastify = Fastify();
await fastify.register(tidings, { receiver, path: "/webhooks" });
const { headers, body: payload } = delivery(4);
const injected = await fastify.inject({ method: "POST", url: "/webhooks", headers, payload });
await fastify.close();
check(injected.statusCode === 200, "fastify: plugin route answers 200");

// @tidings/next (Pages Router) over real HTTP; @tidings/koa's middleware factory.
const pagesServer = createServer(createPagesHandler(receiver));
const viaPages = await fetch(`${await listen(pagesServer)}/api/webhooks`, delivery(5));
pagesServer.close();
check(viaPages.status === 200, "next: createPagesHandler answers 200 over HTTP");
check(typeof koaWebhookMiddleware(receiver) === "function", "koa: webhookMiddleware returns a middleware");

// @tidings/nestjs on both platforms: DI by emitted metadata (DeliveryLog) and by token (TIDINGS_RECEIVER).
@Injectable()
class DeliveryLog {
  readonly entries: string[] = [];
}

@Injectable()
class NestDeliveries {
  constructor(
    private readonly log: DeliveryLog,
    @Inject(TIDINGS_RECEIVER) receiver: Receiver,
  ) {
    receiver.on("message.delivered", (event) => {
      this.log.entries.push(`on:${event.data.id}`);
    });
  }

  @OnDelivery("message.delivered")
  delivered(event: MessageEvents["message.delivered"]) {
    this.log.entries.push(`decorated:${event.data.id}`);
  }

  // @ts-expect-error not an event type of the map
  @OnDelivery("message.misspelled")
  misspelled() {}
}

for (const [platform, adapter] of [
  ["express", () => new ExpressAdapter()],
  ["fastify", () => new FastifyAdapter()],
] as const) {
  const nestReceiver = createReceiver({ secret: SECRET });
  @Module({
    imports: [TidingsModule.forRoot({ receiver: nestReceiver, path: "/webhooks" })],
    providers: [DeliveryLog, NestDeliveries],
  })
  class AppModule {}
  const nest = await NestFactory.create(AppModule, adapter(), { logger: false });
  await nest.listen(0, "127.0.0.1");
  const viaNest = await fetch(`${await nest.getUrl()}/webhooks`, delivery(6));
  const entries = nest.get(DeliveryLog).entries.join();
  await nest.close();
  check(
    viaNest.status === 200 && entries === "on:msg_6,decorated:msg_6",
    `nestjs: TidingsModule on ${platform}, 200 over HTTP, @OnDelivery and receiver.on ran`,
  );
}

// @tidings/redis: a DeliveryStore around the consumer's own ioredis client (never connected here).
const client = new Redis({ lazyConnect: true });
const withRedis = createReceiver({ secret: SECRET, store: new RedisStore({ client, prefix: "tidings:" }) });
check(typeof withRedis.receive === "function", "redis: RedisStore plugs into createReceiver");
client.disconnect();

// @tidings/h3 in an h3 v2 app; @tidings/lambda with an HTTP API (payload 2.0) event.
const h3App = new H3().post("/webhooks", defineWebhookHandler(receiver));
const viaH3 = await h3App.fetch(new Request("http://127.0.0.1/webhooks", delivery(6)));
check(viaH3.status === 200, "h3: defineWebhookHandler answers 200 in an h3 app");
const lambda = delivery(7);
const lambdaEvent = { requestContext: { http: { method: "POST" } }, headers: lambda.headers, body: lambda.body };
const viaLambda = await createLambdaHandler(receiver)(lambdaEvent);
check(viaLambda.statusCode === 200, "lambda: createLambdaHandler answers 200 to an HTTP API event");

// @tidings/opentelemetry with the API alone (no SDK registered): its outcome listener runs and fails nothing.
const logged: unknown[] = [];
const instrumented = createReceiver({ secret: SECRET, logger: { error: (line) => logged.push(line) } });
instrument(instrumented, { tracerProvider: trace.getTracerProvider(), meterProvider: metrics.getMeterProvider() });
const traced = await createFetchHandler(instrumented)(new Request("http://127.0.0.1/webhooks", delivery(8)));
check(
  traced.status === 200 && logged.length === 0,
  "opentelemetry: instrument(receiver) with the API's no-op providers",
);

check(
  handled.join() === "msg_1/sms,msg_2/sms,msg_3/sms,msg_4/sms,msg_5/sms,msg_6/sms,msg_7/sms",
  "every event handled once, typed",
);
console.log(`${process.argv[1]}: ok`);
