import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";

export interface Listening {
  url: string;
  /** Stops listening; `drop` also cuts open connections (event streams), else only idle ones close. */
  close(options?: { drop?: boolean }): Promise<void>;
}

/** Serves a fetch handler (a Hono app) on `host:port` over node:http. */
export async function serveFetch(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  host: string,
): Promise<Listening> {
  // overrideGlobalObjects: false keeps the process's own Request/Response untouched when embedded in tests or apps.
  const server = createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostInUrl}:${address.port}`,
    close: ({ drop = false } = {}) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (drop) server.closeAllConnections();
        else server.closeIdleConnections();
      }),
  };
}
