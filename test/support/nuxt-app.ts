import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { buildAndStartOnNode24, type RunningApp24 } from "./node24-app";

/** `nuxt build`, then the built server (`node .output/server/index.mjs`): Nuxt 4.5 needs Node 22.19+. */
export function buildAndStartNuxtApp(appDir: string, env: Record<string, string>): Promise<RunningApp24> {
  const nuxt = join(dirname(createRequire(`${appDir}/package.json`).resolve("nuxt/package.json")), "bin", "nuxt.mjs");
  return buildAndStartOnNode24(appDir, { build: [nuxt, "build"], start: [".output/server/index.mjs"], env });
}
