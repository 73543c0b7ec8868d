import { type MiddlewareConsumer, Module } from "@nestjs/common";
import { TidingsModule } from "@tidings/nestjs";
import express from "express";
import { type Platform, startNestApp, withAppGlobals } from "../../../packages/nestjs/test/nest-app";
import { sendOverHttp } from "../http-client";
import { sendPartialOverSocket } from "../partial-body";
import { type AnyReceiver, type ConformanceTarget, PARAM_ROUTE, type RunningApp, WEBHOOK_PATH } from "../target";

// Decorators as plain calls: this workspace compiles without TypeScript's legacy decorators.
function appModule(receiver: AnyReceiver, parent: new () => object = class {}, path = WEBHOOK_PATH) {
  class AppModule extends parent {}
  Module({ imports: [TidingsModule.forRoot({ receiver, path })] })(AppModule);
  return AppModule;
}

/** A Nest app on loopback with a global ValidationPipe and a global JSON parser of its own. */
async function start(platform: Platform, module: object, expressServer?: express.Express): Promise<RunningApp> {
  const nest = await startNestApp(platform, module, {
    configure: withAppGlobals(platform),
    ...(expressServer ? { expressServer } : {}),
  });
  const baseUrl = nest.url("");
  return {
    url: baseUrl,
    send: (request) => sendOverHttp(baseUrl, WEBHOOK_PATH, request),
    sendPartial: (wire, bytes, ending) => sendPartialOverSocket(baseUrl, WEBHOOK_PATH, wire, bytes, ending),
    close: nest.close,
  };
}

export const nestExpressTarget: ConformanceTarget = {
  name: "nestjs (platform-express)",
  start: (receiver) => start("express", appModule(receiver)),
  // The mistake on Express: a JSON parser on the Express instance handed to Nest, ahead of the module's route.
  startWithBodyParsedFirst: (receiver) => start("express", appModule(receiver), express().use(express.json())),
  paramRoute: {
    start: (receiver) => start("express", appModule(receiver, undefined, PARAM_ROUTE)),
    route: PARAM_ROUTE,
  },
};

class ParsesEveryBody {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(express.json()).forRoutes("*");
  }
}

export const nestFastifyTarget: ConformanceTarget = {
  name: "nestjs (platform-fastify)",
  start: (receiver) => start("fastify", appModule(receiver)),
  // The mistake on Fastify: a Nest middleware bound to every route that reads the body (middie runs it first).
  startWithBodyParsedFirst: (receiver) => start("fastify", appModule(receiver, ParsesEveryBody)),
  paramRoute: {
    start: (receiver) => start("fastify", appModule(receiver, undefined, PARAM_ROUTE)),
    route: PARAM_ROUTE,
  },
};
