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
import { ROUTES, type Route } from "../http/routes";
import type { InstructionSettings } from "../lib/options";
import { CallgrindChild } from "./callgrind-child";
import { postDeliveries } from "./post";
import { type Counted, countInTurns } from "./turns";

const CONNECTIONS = 4;

/**
 * Routes of a server under callgrind taking turns: each turn POSTs distinct signed 2 KiB deliveries to the route's
 * path and fails unless the server's `measure-end` says the route's handler saw every one.
 */
export async function countRoutes<R extends string>(
  server: CallgrindChild,
  routes: readonly R[],
  pathOf: (route: R) => string,
  settings: InstructionSettings,
  functions = false,
): Promise<Counted<R>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const factory = new DeliveryFactory(2048, `instructions-${process.pid}`);
  try {
    const { port } = await server.call<{ port: number }>("start");
    const send = async (route: R, amount: number) => {
      await server.call("measure-begin");
      await postDeliveries(agent, CONNECTIONS, port, pathOf(route), factory, amount);
      const { handled } = await server.call<{ handled: Record<R, number> }>("measure-end");
      if (handled[route] !== amount) throw new Error(`${route}: ${handled[route]}/${amount} handled`);
    };
    return await countInTurns(new Map(routes.map((route) => [route, server])), settings, functions, send);
  } finally {
    agent.destroy();
  }
}

export async function measureInstructions(
  frameworkId: string,
  routes: readonly Route[],
  settings: InstructionSettings,
  functions = false,
): Promise<Counted<Route>> {
  const server = new CallgrindChild("http/server.ts", { cpu: SERVER_CPU, args: [frameworkId] }, { functions });
  try {
    return await countRoutes(server, routes, (route) => ROUTES[route], settings, functions);
  } finally {
    await server.stop();
  }
}
