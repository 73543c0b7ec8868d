import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));

const config: NextConfig = {
  outputFileTracingRoot: repoRoot,
  turbopack: {
    root: repoRoot,
    // Bundle the workspace packages from source, as the tests do: no build step, never a stale dist.
    resolveAlias: {
      "@tidings/core/adapter": "../../../core/src/entries/adapter.ts",
      "@tidings/core/node": "../../../core/src/entries/node.ts",
      "@tidings/core/schemes": "../../../core/src/entries/schemes.ts",
      "@tidings/core": "../../../core/src/entries/index.ts",
      "@tidings/next": "../../src/index.ts",
    },
  },
};

export default config;
