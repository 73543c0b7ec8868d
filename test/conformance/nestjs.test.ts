import { type MiddlewareConsumer, Module } from "@nestjs/common";
import { TidingsModule } from "@tidings/nestjs";
import express from "express";
import { type Platform, startNestApp, withAppGlobals } from "../../packages/nestjs/test/nest-app";
import { sendOverHttp } from "./http-client";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH } from "./target";

// Decorators as plain calls: this workspace compiles without TypeScript's legacy decorators.
function appModule(receiver: AnyReceiver, parent: new () => object = class {}) {
  class AppModule extends parent {}
  Module({ imports: [TidingsModule.forRoot({ receiver, path: WEBHOOK_PATH })] })(AppModule);
  return AppModule;
}

/** A Nest app on loopback with a global ValidationPipe and a global JSON parser of its own. */
async function start(platform: Platform, module: object, expressServer?: express.Express): Promise<RunningApp> {
  const nest = await startNestApp(platform, module, {
    configure: withAppGlobals(platform),
    ...(expressServer ? { expressServer } : {}),
  });
  return { send: (request) => sendOverHttp(nest.url(""), WEBHOOK_PATH, request), close: nest.close };
}

describeConformance({
  name: "nestjs (platform-express)",
  start: (receiver) => start("express", appModule(receiver)),
  // The mistake on Express: a JSON parser on the Express instance handed to Nest, ahead of the module's route.
  startWithBodyParsedFirst: (receiver) => start("express", appModule(receiver), express().use(express.json())),
});

class ParsesEveryBody {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(express.json()).forRoutes("*");
  }
}

describeConformance({
  name: "nestjs (platform-fastify)",
  start: (receiver) => start("fastify", appModule(receiver)),
  // The mistake on Fastify: a Nest middleware bound to every route that reads the body (middie runs it first).
  startWithBodyParsedFirst: (receiver) => start("fastify", appModule(receiver, ParsesEveryBody)),
});
