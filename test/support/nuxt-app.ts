import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { type ChildServer, runToEnd, startServer } from "./child-process";
import { freePort } from "./free-port";

export interface RunningNuxtApp extends ChildServer {
  url: string;
}

/**
 * `nuxt build`, then the built server (`node .output/server/index.mjs`) on a free loopback port, both on Node 24:
 * Nuxt 4.5 needs Node 22.19+, and the machine's Node may be 20.
 */
export async function buildAndStartNuxtApp(appDir: string, env: Record<string, string>): Promise<RunningNuxtApp> {
  ensureNodeBinaries();
  const node = nodeBinary("node24");
  // Anything Nuxt spawns as `node` must be Node 24 too.
  const path = { PATH: `${dirname(node)}:${process.env.PATH}`, NUXT_TELEMETRY_DISABLED: "1" };
  const nuxt = join(dirname(createRequire(`${appDir}/package.json`).resolve("nuxt/package.json")), "bin", "nuxt.mjs");
  await runToEnd(node, [nuxt, "build"], { cwd: appDir, env: path });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(node, [".output/server/index.mjs"], {
    cwd: appDir,
    env: { ...path, HOST: "127.0.0.1", PORT: String(port), NODE_ENV: "production", ...env },
    ready: (output) => output.includes(`Listening on ${url}`),
  });
  return { ...server, url };
}
