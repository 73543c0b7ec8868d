import { dirname } from "node:path";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { type ChildServer, runToEnd, startServer } from "./child-process";
import { freePort } from "./free-port";

export interface RunningApp24 extends ChildServer {
  url: string;
}

interface BuildAndStartOptions {
  build: string[];
  start: string[];
  env: Record<string, string>;
  /** Whether the server's output says it is listening at `url`. */
  ready?: (output: string, url: string) => boolean;
}

/**
 * Builds an app (`build` is the command line after `node`) and starts its built server (`start`) on a free loopback
 * port, both with the Node binary `node`. By default the server must print `listening on <url>`, in any case (Nitro,
 * SvelteKit's adapter-node, Astro).
 */
export async function buildAndStart(
  appDir: string,
  node: string,
  {
    build,
    start,
    env,
    ready = (output, url) => output.toLowerCase().includes(`listening on ${url}`),
  }: BuildAndStartOptions,
): Promise<RunningApp24> {
  // Anything the build spawns as `node` must be that Node too.
  const path = { PATH: `${dirname(node)}:${process.env.PATH}` };
  await runToEnd(node, build, { cwd: appDir, env: path });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(node, start, {
    cwd: appDir,
    env: { ...path, HOST: "127.0.0.1", PORT: String(port), NODE_ENV: "production", ...env },
    ready: (output) => ready(output, url),
  });
  return { ...server, url };
}

/** {@link buildAndStart} on Node 24, for frameworks whose current major needs Node 22+ while the machine's may be 20. */
export function buildAndStartOnNode24(appDir: string, options: BuildAndStartOptions): Promise<RunningApp24> {
  ensureNodeBinaries();
  return buildAndStart(appDir, nodeBinary("node24"), options);
}
