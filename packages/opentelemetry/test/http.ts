import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER, sign } from "@tidings/core";
import { afterEach } from "vitest";

export const SECRET = "whsec_otel_test_secret";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A request listener on a real loopback server with an OS-chosen port, closed after the test. */
export async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener).listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Delivery {
  body: string;
  signature: string;
}

/** A signed delivery of the default event model; `timestamp` in Unix seconds (default: now). */
export function delivery(
  event: { type: string; id?: string; data?: object },
  options: { timestamp?: number; secret?: string } = {},
): Delivery {
  const body = JSON.stringify({ data: { id: "msg_1", status: "delivered", channel: "sms" }, ...event });
  const signature = sign(body, options.secret ?? SECRET, options.timestamp === undefined ? {} : options);
  return { body, signature };
}

/** POSTs the delivery; the status and the answer's code. */
export async function post(url: string, { body, signature }: Delivery): Promise<{ status: number; code: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
    body,
  });
  const answer = (await response.json()) as { error?: { code: string }; duplicate?: boolean };
  return { status: response.status, code: answer.error?.code ?? (answer.duplicate ? "duplicate" : "accepted") };
}
