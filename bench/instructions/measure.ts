/**
 * User-space instructions per request on routes of one framework's server, counted by valgrind's callgrind: the
 * count does not move with the machine's load, so a 1 % difference between routes shows, where req/s and CPU time
 * move several % from run to run on a shared VM. The server runs under callgrind (callgrind-child.ts), is warmed
 * up, then the routes take turns, one window of requests each. Not counted: the kernel's work (socket reads and
 * writes, the same for every route), so instruction ratios overstate CPU-time ratios.
 */
import { Agent } from "node:http";
import { DeliveryFactory } from "../http/deliveries";
import { SERVER_CPU } from "../http/fleet";
import type { RunStats } from "../http/protocol";
import { ROUTES, type Route } from "../http/routes";
import type { InstructionSettings } from "../lib/options";
import { CallgrindChild } from "./callgrind-child";
import { postDeliveries } from "./post";
import { type Counted, countInTurns } from "./turns";

const CONNECTIONS = 4;

export async function measureInstructions(
  frameworkId: string,
  routes: readonly Route[],
  settings: InstructionSettings,
  functions = false,
): Promise<Counted<Route>> {
  const server = new CallgrindChild("http/server.ts", { cpu: SERVER_CPU, args: [frameworkId] }, { functions });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const factory = new DeliveryFactory(2048, `instructions-${process.pid}`);
  try {
    const { port } = await server.call<{ port: number }>("start");
    /** `amount` requests; checks that the route's handler saw every one. */
    const send = async (route: Route, amount: number) => {
      await server.call("measure-begin");
      await postDeliveries(agent, CONNECTIONS, port, ROUTES[route], factory, amount);
      const stats = await server.call<RunStats>("measure-end");
      if (stats.handled[route] !== amount) throw new Error(`${route}: ${stats.handled[route]}/${amount} handled`);
    };
    return await countInTurns(new Map(routes.map((route) => [route, server])), settings, functions, send);
  } finally {
    agent.destroy();
    await server.stop();
  }
}
