import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import { createReceiver, type DeliveryContext } from "@tidings/core";
import supertest from "supertest";
import { afterEach } from "vitest";

// Shared by the adapter packages' own tests (imported by relative path) and the cross-package suites.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A request listener on a real loopback server, closed after the test. */
export async function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener).listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return server;
}

/** POSTs the bytes exactly as given with supertest, whatever the status. */
export function postBytes(server: Server, path: string, request: { body: Buffer; headers: Record<string, string> }) {
  return (
    supertest(server)
      .post(path)
      .set(request.headers)
      // superagent would JSON.stringify a Buffer sent as application/json; the bytes must go out as they are.
      .serialize((body) => body)
      .send(request.body)
      .ok(() => true)
  );
}

/** A receiver that records the deliveries its handlers saw and what it logged. */
export function recordingReceiver(secret: string, options: { maxBodyBytes?: number } = {}) {
  const seen: DeliveryContext[] = [];
  const logged: unknown[][] = [];
  const receiver = createReceiver({ secret, logger: { error: (...values) => logged.push(values) }, ...options });
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  return { receiver, seen, logged };
}
