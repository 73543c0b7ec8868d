// The Prisma test's client: `prisma generate` of schema.prisma into ./generated (not committed), offline. Run by
// vitest before the tests (globalSetup) and by `npm run typecheck` before tsc; by hand, `node test/prisma/generate.mjs`.
// Skipped while the client is newer than the schema and the installed prisma.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prismaGenerate, prismaPackage } from "../../../../test/support/prisma-generate.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const SCHEMA = join(HERE, "schema.prisma");
const CLIENT = join(HERE, "generated", "client.ts");

export function generatePrismaClient() {
  const { manifest } = prismaPackage(HERE);
  const newest = Math.max(statSync(SCHEMA).mtimeMs, statSync(manifest).mtimeMs);
  if (existsSync(CLIENT) && statSync(CLIENT).mtimeMs > newest) return;
  prismaGenerate(SCHEMA, HERE);
}

/** vitest's globalSetup. */
export function setup() {
  generatePrismaClient();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) generatePrismaClient();
