// A consumer of the PACKED packages: CommonJS. tsc (NodeNext) compiles each `import x = require()` to a plain
// require(), so node loads the packages' "require" builds (.cjs) and tsc checks them against their .d.cts types.
import events = require("node:events");
import http = require("node:http");
import core = require("@tidings/core");
import expressAdapter = require("@tidings/express");
import fastifyAdapter = require("@tidings/fastify");
import fetchAdapter = require("@tidings/fetch");
import h3Adapter = require("@tidings/h3");
import koaAdapter = require("@tidings/koa");
import nestAdapter = require("@tidings/nestjs");
import lambdaAdapter = require("@tidings/lambda");
import nextAdapter = require("@tidings/next");
import otel = require("@tidings/opentelemetry");
import redisAdapter = require("@tidings/redis");
import express = require("express");
import fastifyModule = require("fastify");
import ioredis = require("ioredis");
import nestCommon = require("@nestjs/common");
import nestCore = require("@nestjs/core");
import nestExpress = require("@nestjs/platform-express");
import nestFastify = require("@nestjs/platform-fastify");
import otelApi = require("@opentelemetry/api");

const SECRET = "whsec_consumer";

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`consumer check failed: ${what}`);
  console.log(`  ✓ ${what}`);
}

function errorCode(error: unknown): core.ErrorCode | undefined {
  return error instanceof core.WebhookVerificationError ? error.code : undefined;
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
  const headers = { "content-type": "application/json", "service-signature": core.sign(body, SECRET) };
  return { method: "POST", headers, body };
}

async function listen(server: http.Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await events.once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on TCP");
  return `http://127.0.0.1:${address.port}`;
}

// @tidings/nestjs: DI by emitted metadata (DeliveryLog) and by token (TIDINGS_RECEIVER).
@nestCommon.Injectable()
class DeliveryLog {
  readonly entries: string[] = [];
}

@nestCommon.Injectable()
class NestDeliveries {
  constructor(
    private readonly log: DeliveryLog,
    @nestCommon.Inject(nestAdapter.TIDINGS_RECEIVER) receiver: core.Receiver,
  ) {
    receiver.on("message.delivered", (event) => {
      this.log.entries.push(`on:${event.data.id}`);
    });
  }

  @nestAdapter.OnDelivery("message.delivered")
  delivered(event: core.MessageEvents["message.delivered"]) {
    this.log.entries.push(`decorated:${event.data.id}`);
  }
}

async function deliverThroughNest(adapter: nestExpress.ExpressAdapter | nestFastify.FastifyAdapter, body: RequestInit) {
  const receiver = core.createReceiver({ secret: SECRET });
  @nestCommon.Module({
    imports: [nestAdapter.TidingsModule.forRoot({ receiver, path: "/webhooks" })],
    providers: [DeliveryLog, NestDeliveries],
  })
  class AppModule {}
  const nest = await nestCore.NestFactory.create(AppModule, adapter, { logger: false });
  await nest.listen(0, "127.0.0.1");
  const response = await fetch(`${await nest.getUrl()}/webhooks`, body);
  const entries = nest.get(DeliveryLog).entries.join();
  await nest.close();
  return { status: response.status, entries };
}

async function main(): Promise<void> {
  const resolved = require.resolve("@tidings/core");
  check(
    /\/node_modules\/@tidings\/core\/dist\/index\.cjs$/.test(resolved),
    "require resolves to the packed CommonJS build",
  );

  const body = eventBody(0);
  const header = core.sign(body, SECRET);
  check(core.verify(body, header, SECRET).secretIndex === 0, "core: verify (sync)");
  const rotated = await core.verifyAsync(body, header, ["whsec_old", SECRET]);
  check(rotated.secretIndex === 1, "core: verifyAsync, rotated secrets");
  check(core.constructEvent(body, header, SECRET).type === "message.delivered", "core: constructEvent");
  try {
    core.verify(`${body} `, header, SECRET);
    check(false, "core: a tampered body throws");
  } catch (error) {
    check(
      errorCode(error) === "signature_mismatch",
      "core: tampered body -> WebhookVerificationError signature_mismatch",
    );
  }

  const handled: string[] = [];
  const receiver = core.createReceiver({ secret: SECRET }).on("message.delivered", (event) => {
    const channel: "sms" | "email" | "push" = event.data.channel;
    handled.push(`${event.data.id}/${channel}`);
  });
  // @ts-expect-error the event types are the package's, not `any`: a misspelled type does not compile
  receiver.on("message.delivred", () => {});

  const handle = fetchAdapter.createFetchHandler(receiver);
  const first = await handle(new Request("http://127.0.0.1/webhooks", delivery(1)));
  const replay = await handle(new Request("http://127.0.0.1/webhooks", delivery(1)));
  check(first.status === 200 && (await replay.json()).duplicate === true, "fetch: 200, then 200 duplicate on replay");
  const routed = await nextAdapter.createRouteHandler(receiver)(new Request("http://127.0.0.1/webhooks", delivery(2)));
  check(routed.status === 200, "next: createRouteHandler answers 200");

  const app = express();
  app.post("/webhooks", expressAdapter.webhookMiddleware(receiver));
  app.use(express.json({ verify: expressAdapter.captureRawBody }));
  const expressServer = http.createServer(app);
  const viaExpress = await fetch(`${await listen(expressServer)}/webhooks`, delivery(3));
  expressServer.close();
  check(viaExpress.status === 200, "express: webhookMiddleware answers 200 over HTTP");

  const fastify = fastifyModule.fastify();
  await fastify.register(fastifyAdapter.default, { receiver, path: "/webhooks" });
  const { headers, body: payload } = delivery(4);
  const injected = await fastify.inject({ method: "POST", url: "/webhooks", headers, payload });
  await fastify.close();
  check(injected.statusCode === 200, "fastify: plugin route answers 200 (require('@tidings/fastify').default)");

  const pagesServer = http.createServer(nextAdapter.createPagesHandler(receiver));
  const viaPages = await fetch(`${await listen(pagesServer)}/api/webhooks`, delivery(5));
  pagesServer.close();
  check(viaPages.status === 200, "next: createPagesHandler answers 200 over HTTP");
  check(typeof koaAdapter.webhookMiddleware(receiver) === "function", "koa: webhookMiddleware returns a middleware");

  for (const adapter of [new nestExpress.ExpressAdapter(), new nestFastify.FastifyAdapter()]) {
    const { status, entries } = await deliverThroughNest(adapter, delivery(6));
    const what = `nestjs: TidingsModule on ${adapter.getType()}, 200 over HTTP, @OnDelivery and receiver.on ran`;
    check(status === 200 && entries === "on:msg_6,decorated:msg_6", what);
  }

  const client = new ioredis.Redis({ lazyConnect: true });
  const store = new redisAdapter.RedisStore({ client, prefix: "tidings:" });
  const withRedis = core.createReceiver({ secret: SECRET, store });
  check(typeof withRedis.receive === "function", "redis: RedisStore plugs into createReceiver");
  client.disconnect();

  // @tidings/h3 with an h3 v2 event (its `req` is the Web Request); @tidings/lambda with an HTTP API event.
  const h3Handler = h3Adapter.defineWebhookHandler(receiver);
  const viaH3 = await h3Handler({ req: new Request("http://127.0.0.1/webhooks", delivery(6)) });
  check(viaH3.status === 200 && h3Handler.__is_handler__, "h3: defineWebhookHandler answers 200 to an h3 v2 event");
  const lambda = delivery(7);
  const lambdaEvent = { requestContext: { http: { method: "POST" } }, headers: lambda.headers, body: lambda.body };
  const viaLambda = await lambdaAdapter.createLambdaHandler(receiver)(lambdaEvent);
  check(viaLambda.statusCode === 200, "lambda: createLambdaHandler answers 200 to an HTTP API event");

  // @tidings/opentelemetry with the API alone (no SDK registered): its outcome listener runs and fails nothing.
  const logged: unknown[] = [];
  const instrumented = core.createReceiver({ secret: SECRET, logger: { error: (line) => logged.push(line) } });
  const providers = {
    tracerProvider: otelApi.trace.getTracerProvider(),
    meterProvider: otelApi.metrics.getMeterProvider(),
  };
  otel.instrument(instrumented, providers);
  const traced = await fetchAdapter.createFetchHandler(instrumented)(
    new Request("http://127.0.0.1/webhooks", delivery(8)),
  );
  check(
    traced.status === 200 && logged.length === 0,
    "opentelemetry: instrument(receiver) with the API's no-op providers",
  );

  check(
    handled.join() === "msg_1/sms,msg_2/sms,msg_3/sms,msg_4/sms,msg_5/sms,msg_6/sms,msg_7/sms",
    "every event handled once, typed",
  );
  console.log("cjs-require: ok");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
