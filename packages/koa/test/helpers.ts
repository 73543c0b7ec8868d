import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { createReceiver, type DeliveryContext, sign } from "@tidings/core";
import type Koa from "koa";
import supertest from "supertest";
import { afterEach } from "vitest";

export const SECRET = "whsec_koa_tests";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** The app on a real loopback server, closed after the test. */
export async function listen(app: Koa): Promise<Server> {
  const server = createServer(app.callback()).listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return server;
}

/** A signed JSON delivery, with whitespace that re-serialising a parsed body would lose. */
export function signedDelivery(id: string) {
  const body = Buffer.from(`{ "id": "${id}",  "type": "message.sent", "data": { "id": "msg_1" } }`);
  return { body, headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) } };
}

export function post(server: Server, path: string, request: ReturnType<typeof signedDelivery>) {
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
export function recordingReceiver() {
  const seen: DeliveryContext[] = [];
  const logged: unknown[][] = [];
  const receiver = createReceiver({ secret: SECRET, logger: { error: (...values) => logged.push(values) } });
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  return { receiver, seen, logged };
}
