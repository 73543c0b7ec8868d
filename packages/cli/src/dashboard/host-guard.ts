import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { MiddlewareHandler } from "hono";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

const inUrl = (host: string) => (isIP(host) === 6 ? `[${host}]` : host.toLowerCase());

/**
 * The `host:port` values a request to the dashboard may carry in `Host` (and its `Origin`): the loopback names, and
 * the address it was told to listen on. On a wildcard address, this machine's own IP addresses; never a DNS name the
 * user did not give, which is what a DNS rebinding attack would send.
 */
export function allowedHosts(listenHost: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARDS.has(listenHost)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address } of addresses ?? []) names.add(inUrl(address.split("%")[0] as string));
    }
  } else {
    names.add(inUrl(listenHost));
  }
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Answers 421 to a request whose `Host` is not one of `hosts`, and 403 to a state-changing request from another
 * origin: another site's page reaches the dashboard neither by rebinding its own name to 127.0.0.1 nor by posting to it.
 */
export function hostGuard(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host")?.toLowerCase();
    if (host === undefined || !hosts().has(host)) {
      return c.json({ error: { message: "The dashboard answers only at its own address (Host)." } }, 421);
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && c.req.method !== "GET" && c.req.method !== "HEAD") {
      const from = URL.canParse(origin) ? new URL(origin) : undefined;
      if (from?.protocol !== "http:" || !hosts().has(from.host)) {
        return c.json({ error: { message: "Cross-origin requests cannot change the dashboard." } }, 403);
      }
    }
    return next();
  };
}
