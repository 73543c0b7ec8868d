/**
 * A CPU profile of one framework's server under load, for `profile/summarize.ts` and `profile/diff.ts`:
 *   npm run profile:http --workspace @tidings/bench -- fastify adapter         (routes: bare, ideal, adapter)
 *   npm run profile:http --workspace @tidings/bench -- koa ideal,adapter       (several routes, alternating)
 * The server process runs with --cpu-prof and writes its profile to .profiles (or $PROFILE_DIR) when it exits.
 * With several routes they alternate in one process, so they share its warm-up and the machine's moods, and
 * windows.json records when each route ran: `profile:diff -- <dir> ideal adapter` compares them per request.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { framework } from "../http/apps";
import { measure, startClient } from "../http/fleet";
import { ROUTES, type Route } from "../http/routes";
import { Child } from "../lib/children";
import type { RouteWindows } from "./cpu-profile";

const id = process.argv[2] ?? "fastify";
const routes = (process.argv[3] ?? "adapter").split(",") as Route[];
for (const route of routes) {
  if (!(route in ROUTES)) throw new Error(`routes must be among ${Object.keys(ROUTES).join(", ")}`);
}
const directory = process.env.PROFILE_DIR ?? ".profiles";
const RUNS = routes.length > 1 ? 10 : 3;
const child = new Child("http/server.ts", {
  cpu: 1,
  nodeArgs: ["--expose-gc", "--cpu-prof", `--cpu-prof-dir=${directory}`],
  args: [id],
});
const client = startClient();
const windows: RouteWindows = {};
try {
  const { port } = await child.call<{ port: number }>("start");
  const server = { framework: framework(id), child, port };
  for (let run = 0; run < RUNS; run++) {
    for (const route of routes) {
      const { load, server: stats } = await measure(client, server, route, {
        path: ROUTES[route],
        connections: 16,
        amount: routes.length > 1 ? 5_000 : 20_000,
        bodyBytes: 2048,
        tag: `profile-${process.pid}-${run}-${route}`,
        source: "pool",
      });
      // The first runs warm the process up; only the later ones count in windows.json.
      if (run > 0) windows[route] = [...(windows[route] ?? []), { ...stats.window, requests: load.ok }];
      console.log(
        `${id} ${route}: ${load.requestsPerSecond.toFixed(0)} req/s, ${(stats.cpuMicros / load.ok).toFixed(1)} µs CPU/req`,
      );
    }
  }
} finally {
  await client.stop();
  await child.stop();
}
mkdirSync(directory, { recursive: true });
writeFileSync(join(directory, "windows.json"), JSON.stringify(windows));
