import { createServer } from "node:net";

/** A loopback port nobody listens on right now, for servers that cannot be told to pick one (redis-server, postgres). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
