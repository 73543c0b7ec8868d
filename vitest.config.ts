import { defineConfig } from "vitest/config";

// `npx vitest` at the root runs every package's project; `npm test` runs them through turbo.
export default defineConfig({
  test: { projects: ["packages/*", "test"] },
});
