import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { createReceiver, type DeliveryContext, sign } from "@tidings/core";
import supertest from "supertest";
import { afterEach } from "vitest";

export const SECRET = "whsec_express_tests";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** The app on a real loopback server, closed after the test. */
export async function listen(app: RequestListener): Promise<Server> {
  const server = createServer(app).listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return server;
}

/** A signed delivery. Its JSON keeps whitespace that re-serialising a parsed body would lose. */
export function signedDelivery(id: string, options: { gzip?: boolean; pad?: number } = {}) {
  const signed = Buffer.from(
    `{ "id": "${id}",  "type": "message.sent", "data": { "id": "msg_1" }, "pad": "${"x".repeat(options.pad ?? 0)}" }`,
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "service-signature": sign(signed, SECRET),
  };
  if (!options.gzip) return { body: signed, headers, signed };
  return { body: gzipSync(signed), headers: { ...headers, "content-encoding": "gzip" }, signed };
}

export function post(server: Server, path: string, request: { body: Buffer; headers: Record<string, string> }) {
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

/** A receiver that records what its handler saw and what it logged. */
export function recordingReceiver(options: { maxBodyBytes?: number } = {}) {
  const seen: DeliveryContext[] = [];
  const logged: unknown[][] = [];
  const receiver = createReceiver({
    secret: SECRET,
    logger: { error: (...values) => logged.push(values) },
    ...options,
  });
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  return { receiver, seen, logged };
}
