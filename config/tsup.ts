import { defineConfig, type Options } from "tsup";

/** The build every package shares: ESM + CJS with per-format declarations, dependencies left external. */
export function packageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    ...overrides,
  });
}
