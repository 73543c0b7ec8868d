import { packageTests } from "../../config/vitest";

// PGlite starts a PostgreSQL compiled to WebAssembly (initdb included) for each database: tens of seconds apiece
// when CI runs every package's tests at once. The Prisma test's client is generated first (test/prisma/generate.mjs).
export default packageTests("postgres", {
  testTimeout: 180_000,
  hookTimeout: 180_000,
  globalSetup: ["test/prisma/generate.mjs"],
});
