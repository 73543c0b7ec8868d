/**
 * A CPU profile of one framework's server under load on one route, for `profile/summarize.ts`:
 *   npm run profile:http --workspace @tidings/bench -- fastify adapter   (routes: bare, ideal, adapter)
 * The server process runs with --cpu-prof and writes its profile to .profiles (or $PROFILE_DIR) when it exits;
 * profile two routes into two directories and compare them with `profile:diff`.
 */
import { framework } from "../http/apps";
import { measure, startClient } from "../http/fleet";
import { ROUTES, type Route } from "../http/routes";
import { Child } from "../lib/children";

const id = process.argv[2] ?? "fastify";
const route = (process.argv[3] ?? "adapter") as Route;
if (!(route in ROUTES)) throw new Error(`route must be one of ${Object.keys(ROUTES).join(", ")}`);
const child = new Child("http/server.ts", {
  cpu: 1,
  nodeArgs: ["--expose-gc", "--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE_DIR ?? ".profiles"}`],
  args: [id],
});
const client = startClient();
try {
  const { port } = await child.call<{ port: number }>("start");
  const server = { framework: framework(id), child, port };
  for (let run = 0; run < 3; run++) {
    const tag = `profile-${process.pid}-${run}`;
    const { load, server: stats } = await measure(client, server, route, {
      path: ROUTES[route],
      connections: 16,
      amount: 20_000,
      bodyBytes: 2048,
      tag,
      source: "pool",
    });
    console.log(
      `${id} ${route}: ${load.requestsPerSecond.toFixed(0)} req/s, ${(stats.cpuMicros / load.ok).toFixed(1)} µs CPU/req`,
    );
  }
} finally {
  await client.stop();
  await child.stop();
}
