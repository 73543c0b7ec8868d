import { once } from "node:events";
import { createServer } from "node:net";

/** A port the OS just handed out, for servers that must be told a port number rather than pick one (port 0). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
