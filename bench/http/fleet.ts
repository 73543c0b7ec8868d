import { Child } from "../lib/children";
import { FRAMEWORKS, type Framework } from "./apps";
import type { LoadResult, LoadRun, RunStats } from "./protocol";
import type { Route } from "./routes";

/** Client on core 0, servers on core 1: they never compete for a core (with taskset). */
export const CLIENT_CPU = 0;
export const SERVER_CPU = 1;

export interface ServerHandle {
  framework: Framework;
  child: Child;
  port: number;
}

export function startClient(): Child {
  return new Child("http/client.ts", { cpu: CLIENT_CPU });
}

/** Runs `use` with a framework's server process, started and listening, then closes it. */
export async function withServer<T>(framework: Framework, use: (server: ServerHandle) => Promise<T>): Promise<T> {
  const child = new Child("http/server.ts", { cpu: SERVER_CPU, nodeArgs: ["--expose-gc"], args: [framework.id] });
  try {
    const { port } = await child.call<{ port: number }>("start");
    return await use({ framework, child, port });
  } finally {
    await child.call("close").catch(() => undefined);
    await child.stop();
  }
}

export interface MeasuredRun {
  load: LoadResult;
  server: RunStats;
}

/**
 * One autocannon run against one route, with the server's CPU time and handler count around it. Throws unless
 * every request was answered 200 with the Receiver's answer and reached the handler: a duplicate or an error
 * would measure less than the full work.
 */
export async function measure(
  client: Child,
  server: ServerHandle,
  route: Route,
  run: Omit<LoadRun, "port">,
): Promise<MeasuredRun> {
  await server.child.call("measure-begin");
  const load = await client.call<LoadResult>("run", { ...run, port: server.port });
  const stats = await server.child.call<RunStats>("measure-end");
  const where = `${server.framework.id} ${route}`;
  if (load.ok !== run.amount || load.non2xx + load.errors + load.timeouts > 0) {
    throw new Error(
      `${where}: ${load.ok}/${run.amount} answered 200 (${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts)`,
    );
  }
  if (load.mismatches > 0) throw new Error(`${where}: ${load.mismatches} answers were not {"received":true}`);
  if (stats.handled[route] !== run.amount) {
    throw new Error(`${where}: the handler ran ${stats.handled[route]} times for ${run.amount} deliveries`);
  }
  return { load, server: stats };
}

/**
 * Runs `bench` for each framework of `ids` with one client process, one framework at a time; a framework that fails is
 * logged and reported through `failed`, and the others still run.
 */
export async function forEachFramework<Result>(
  suite: string,
  ids: readonly string[],
  log: (line: string) => void,
  bench: (client: Child, framework: Framework) => Promise<Result>,
  failed: (framework: Framework, message: string) => Result,
): Promise<Result[]> {
  const client = startClient();
  const results: Result[] = [];
  try {
    for (const framework of FRAMEWORKS.filter((candidate) => ids.includes(candidate.id))) {
      try {
        results.push(await bench(client, framework));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`${suite} ${framework.id} FAILED: ${message}`);
        results.push(failed(framework, message));
      }
    }
  } finally {
    await client.stop();
  }
  return results;
}
