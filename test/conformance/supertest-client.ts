import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import supertest from "supertest";
import { sendPartialOverSocket } from "./partial-body";
import { type RunningApp, WEBHOOK_PATH, type WireRequest } from "./target";

/** Serves a Node request listener on loopback and drives it with supertest, sending the body bytes exactly as given. */
export async function listenWithSupertest(listener: RequestListener): Promise<RunningApp> {
  const server = createServer(listener).listen(0, "127.0.0.1");
  await once(server, "listening");
  const send = async (wire: WireRequest) => {
    // The identity serializer stops superagent from JSON.stringify-ing a Buffer sent as application/json.
    const request = new supertest.Test(server, wire.method, wire.path ?? WEBHOOK_PATH)
      .set(wire.headers)
      .serialize((body) => body);
    const response = await (wire.body ? request.send(Buffer.from(wire.body)) : request).ok(() => true);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers as Record<string, string | string[]>)) {
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    return { status: response.status, headers, body: response.text };
  };
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    send,
    sendPartial: (wire, bytes, ending) => sendPartialOverSocket(baseUrl, WEBHOOK_PATH, wire, bytes, ending),
    close: () => new Promise((done) => server.close(() => done())),
  };
}
