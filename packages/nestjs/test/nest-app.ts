import "reflect-metadata";
import type { AddressInfo } from "node:net";
import type { INestApplication, NestApplicationOptions, Type } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter } from "@nestjs/platform-express";
import { FastifyAdapter } from "@nestjs/platform-fastify";

export const PLATFORMS = ["express", "fastify"] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface RunningNestApp {
  app: INestApplication;
  url(path: string): string;
  close(): Promise<void>;
}

/** A real Nest app on the platform, listening on 127.0.0.1 on a free port. */
export async function startNestApp(
  platform: Platform,
  module: Type,
  options: NestApplicationOptions & { configure?: (app: INestApplication) => void } = {},
): Promise<RunningNestApp> {
  const adapter = platform === "express" ? new ExpressAdapter() : new FastifyAdapter();
  const app = await NestFactory.create(module, adapter, { logger: false, ...options });
  options.configure?.(app);
  return listen(app);
}

export async function listen(app: INestApplication): Promise<RunningNestApp> {
  await app.listen(0, "127.0.0.1");
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: (path) => `http://127.0.0.1:${port}${path}`, close: () => app.close() };
}
