import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { sign } from "@tidings/core";
import { createApp as createExpressApp } from "../../examples/express/app";
import { createApp as createFastifyApp } from "../../examples/fastify/app";
import { createApp as createHonoApp } from "../../examples/hono/app";
import { createApp as createKoaApp } from "../../examples/koa/app";
import { createApp as createNestApp } from "../../examples/nestjs/app";

export interface RunningExample {
  /** Base URL: POST {url}/webhooks, GET {url}/messages/:id. */
  url: string;
  close(): Promise<void>;
}

const quiet = () => {};

/** The example behind `server` once it listens, and how to close it with its open connections. */
export async function listening(server: Server): Promise<RunningExample> {
  if (!server.listening) await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function nestjs(secret: string, platform: "express" | "fastify"): Promise<RunningExample> {
  const app = await createNestApp({ secret, log: quiet }, platform);
  await app.listen(0, "127.0.0.1");
  const { url, close } = await listening(app.getHttpServer());
  return { url, close: () => close().then(() => app.close()) };
}

/** Every non-Next example, started in-process on a free loopback port through its exported createApp(). */
export const EXAMPLES: Record<string, (secret: string) => Promise<RunningExample>> = {
  express: (secret) => listening(createExpressApp({ secret, log: quiet }).listen(0, "127.0.0.1")),
  koa: (secret) => listening(createKoaApp({ secret, log: quiet }).listen(0, "127.0.0.1")),
  fastify: async (secret) => {
    const app = await createFastifyApp({ secret, log: quiet });
    await app.listen({ port: 0, host: "127.0.0.1" });
    return listening(app.server);
  },
  "nestjs (Express)": (secret) => nestjs(secret, "express"),
  "nestjs (Fastify)": (secret) => nestjs(secret, "fastify"),
  hono: (secret) =>
    listening(serve({ fetch: createHonoApp({ secret, log: quiet }).fetch, port: 0, hostname: "127.0.0.1" }) as Server),
};

/** A proxy in front of a receiver that answers 500 to the first `failures` webhook deliveries, then forwards. */
export async function failingFirst(target: string, failures: number): Promise<RunningExample & { failed: number }> {
  const state = { failed: 0 };
  const server = createServer((req, res) => {
    if (state.failed < failures) {
      state.failed++;
      req.resume();
      res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"code":"handler_failed"}}');
      return;
    }
    const upstream = httpRequest(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  }).listen(0, "127.0.0.1");
  const running = await listening(server);
  return {
    ...running,
    get failed() {
      return state.failed;
    },
  };
}

export interface MessageRecord {
  status: string;
  channel: string;
  events: string[];
}

export async function messageRecord(baseUrl: string, id: string): Promise<MessageRecord | undefined> {
  const response = await fetch(`${baseUrl}/messages/${id}`);
  return response.status === 200 ? ((await response.json()) as MessageRecord) : undefined;
}

/** POSTs a delivery signed with `secret` whose body changed after signing; resolves to the status and error code. */
export async function sendTampered(url: URL, secret: string): Promise<[number, string | undefined]> {
  const body = JSON.stringify({
    id: "evt_t",
    type: "message.sent",
    data: { id: "msg_t", status: "sent", channel: "sms" },
  });
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, secret) },
    body: body.replace("sms", "push"),
  });
  return [response.status, ((await response.json()) as { error?: { code: string } }).error?.code];
}
