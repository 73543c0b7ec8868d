import coreManifest from "@nestjs/core/package.json";
import expressAdapterManifest from "@nestjs/platform-express/package.json";
import fastifyAdapterManifest from "@nestjs/platform-fastify/package.json";
import { expect, inject, it } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    nestMajor: number;
  }
}

it("runs against the NestJS major this test project names", () => {
  const majors = [coreManifest, expressAdapterManifest, fastifyAdapterManifest].map(({ version }) =>
    Number(version.split(".")[0]),
  );
  expect(majors).toEqual([inject("nestMajor"), inject("nestMajor"), inject("nestMajor")]);
});
