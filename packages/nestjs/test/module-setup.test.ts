import type { IncomingMessage } from "node:http";
import { Injectable, Module } from "@nestjs/common";
import { ConfigModule, ConfigService } from "@nestjs/config";
import { HttpAdapterHost, NestFactory } from "@nestjs/core";
import { ExpressAdapter } from "@nestjs/platform-express";
import { FastifyAdapter } from "@nestjs/platform-fastify";
import { Test } from "@nestjs/testing";
import { createReceiver, type DeliveryContext, type MessageEvents, sign } from "@tidings/core";
import { OnDelivery, TIDINGS_RECEIVER, TidingsModule } from "@tidings/nestjs";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { deliver, eventBody, SECRET } from "./deliveries";
import { listen, PLATFORMS, type RunningNestApp, startNestApp } from "./nest-app";

function recordingReceiver(secret = SECRET) {
  const contexts: DeliveryContext[] = [];
  const receiver = createReceiver({ secret, logger: { error() {} } }).on("message.delivered", (_event, context) => {
    contexts.push(context);
  });
  return { receiver, contexts };
}

let running: RunningNestApp | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe.each(PLATFORMS)("TidingsModule.forRootAsync on %s", (platform) => {
  it("builds the receiver from ConfigService", async () => {
    const contexts: DeliveryContext[] = [];
    @Module({
      imports: [
        TidingsModule.forRootAsync({
          imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [() => ({ WEBHOOK_SECRET: "whsec_config" })] })],
          inject: [ConfigService],
          useFactory: (config: ConfigService) => {
            const receiver = createReceiver({ secret: config.getOrThrow<string>("WEBHOOK_SECRET") });
            receiver.on("message.delivered", (_event, context) => {
              contexts.push(context);
            });
            return { receiver, path: "/hooks/service" };
          },
        }),
      ],
    })
    class AppModule {}
    running = await startNestApp(platform, AppModule);
    const url = running.url("/hooks/service");
    expect((await deliver(url, eventBody(), { secret: "whsec_config" })).status).toBe(200);
    expect((await deliver(url, eventBody(), { secret: SECRET })).status).toBe(400);
    expect(contexts).toHaveLength(1);
  });
});

describe.each(PLATFORMS)("TidingsModule in @nestjs/testing on %s", (platform) => {
  it("mounts the route when the test creates the application", async () => {
    const { receiver, contexts } = recordingReceiver();
    const moduleRef = await Test.createTestingModule({
      imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })],
    }).compile();
    const app = moduleRef.createNestApplication(platform === "express" ? new ExpressAdapter() : new FastifyAdapter(), {
      logger: false,
    });
    running = await listen(app);
    expect((await deliver(running.url("/webhooks"), eventBody())).status).toBe(200);
    expect(contexts).toHaveLength(1);
  });
});

describe("TidingsModule on an Express instance that already parses JSON", () => {
  async function startOn(server: express.Express) {
    const { receiver, contexts } = recordingReceiver();
    @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })] })
    class AppModule {}
    return { running: await startNestApp("express", AppModule, { expressServer: server, rawBody: true }), contexts };
  }

  it("uses the bytes the parser kept in req.rawBody, Nest's RawBodyRequest convention", async () => {
    const server = express();
    server.use(
      express.json({
        verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
          req.rawBody = buf;
        },
      }),
    );
    const started = await startOn(server);
    running = started.running;
    const body = eventBody();
    expect((await deliver(running.url("/webhooks"), body)).status).toBe(200);
    expect(Buffer.from(started.contexts[0]?.verifiedBody ?? []).equals(body)).toBe(true);
  });

  it("answers 500 body_already_parsed with the fix when the parser kept nothing", async () => {
    const server = express();
    server.use(express.json());
    const started = await startOn(server);
    running = started.running;
    const response = await deliver(running.url("/webhooks"), eventBody());
    const { error } = await response.json();
    expect([response.status, error.code]).toEqual([500, "body_already_parsed"]);
    expect(error.message).toContain("req.rawBody = buf");
    expect(started.contexts).toHaveLength(0);
  });
});

describe("TidingsModule in a standalone application context", () => {
  it("starts without an HTTP adapter and mounts nothing; its receiver still runs @OnDelivery methods", async () => {
    const { receiver, contexts } = recordingReceiver();
    const handled: string[] = [];
    @Injectable()
    class Worker {
      @OnDelivery("message.delivered")
      delivered(event: MessageEvents["message.delivered"]) {
        handled.push(String(event.id));
      }
    }
    @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })], providers: [Worker] })
    class WorkerModule {}
    const context = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
    try {
      expect(context.get(HttpAdapterHost).httpAdapter).toBeFalsy();
      expect(context.get(TIDINGS_RECEIVER)).toBe(receiver);
      const rawBody = eventBody("message.delivered", "evt_worker");
      const result = await receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, SECRET) } });
      expect(result.status).toBe(200);
      expect(handled).toEqual(["evt_worker"]);
      expect(contexts).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});
