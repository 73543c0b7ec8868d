import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { type INestApplication, type NestApplicationOptions, ValidationPipe } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import type { Express } from "express";
import type { FastifyServerOptions } from "fastify";

export const PLATFORMS = ["express", "fastify"] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface RunningNestApp {
  app: INestApplication;
  url(path: string): string;
  close(): Promise<void>;
}

export interface NestAppOptions extends NestApplicationOptions {
  /** On Express: the Express instance to hand to ExpressAdapter (an app that set it up itself). */
  expressServer?: Express;
  /** On Fastify: the options to hand to FastifyAdapter. */
  fastifyOptions?: FastifyServerOptions;
  configure?: (app: INestApplication) => void;
}

/** A real Nest app on the platform, listening on 127.0.0.1 on a free port. */
export async function startNestApp(
  platform: Platform,
  module: object,
  { expressServer, fastifyOptions, configure, ...options }: NestAppOptions = {},
): Promise<RunningNestApp> {
  const adapter = platform === "express" ? new ExpressAdapter(expressServer) : new FastifyAdapter(fastifyOptions);
  const app = await NestFactory.create(module as new () => object, adapter, { logger: false, ...options });
  configure?.(app);
  return listen(app);
}

export async function listen(app: INestApplication): Promise<RunningNestApp> {
  await app.listen(0, "127.0.0.1");
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: (path) => `http://127.0.0.1:${port}${path}`, close: () => app.close() };
}

function parseJson(_request: unknown, body: Buffer, done: (error: Error | null, parsed?: unknown) => void) {
  try {
    done(null, JSON.parse(body.toString("utf8")));
  } catch (error) {
    done(error as Error);
  }
}

/** What most Nest apps have: a global ValidationPipe, and a global JSON parser declared by the app itself. */
export function withAppGlobals(platform: Platform) {
  return (app: INestApplication) => {
    app.useGlobalPipes(new ValidationPipe());
    if (platform === "express") (app as NestExpressApplication).useBodyParser("json", { limit: "5mb" });
    // With the parser spelled out: Nest 11's Fastify adapter hands the raw Buffer on when given none.
    else (app as NestFastifyApplication).useBodyParser("application/json", { bodyLimit: 5 << 20 }, parseJson);
  };
}
