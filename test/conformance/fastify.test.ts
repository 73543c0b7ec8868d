import type { AddressInfo } from "node:net";
import tidings from "@tidings/fastify";
import Fastify, { type FastifyInstance, type HTTPMethods } from "fastify";
import { webhookHandler } from "../../packages/fastify/src/handler";
import { sendOverHttp } from "./http-client";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH, type WireResponse } from "./target";

/** The app as the README mounts it. */
async function mounted(receiver: AnyReceiver): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(tidings, { receiver, path: WEBHOOK_PATH });
  return app;
}

/** The mounting mistake: the route declared on the app itself, so Fastify's JSON parser reads the body first. */
function parsedFirst(receiver: AnyReceiver): FastifyInstance {
  const app = Fastify();
  app.all(WEBHOOK_PATH, webhookHandler(receiver));
  return app;
}

function flatten(headers: Record<string, string | number | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return flat;
}

async function injected(app: FastifyInstance): Promise<RunningApp> {
  await app.ready();
  return {
    async send(request): Promise<WireResponse> {
      const response = await app.inject({
        method: request.method as HTTPMethods,
        url: WEBHOOK_PATH,
        headers: request.headers,
        ...(request.body ? { payload: Buffer.from(request.body) } : {}),
      });
      return { status: response.statusCode, headers: flatten(response.headers), body: response.body };
    },
    close: () => app.close(),
  };
}

async function listening(app: FastifyInstance): Promise<RunningApp> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { send: (request) => sendOverHttp(baseUrl, WEBHOOK_PATH, request), close: () => app.close() };
}

describeConformance({
  name: "fastify (app.inject)",
  start: async (receiver) => injected(await mounted(receiver)),
  startWithBodyParsedFirst: (receiver) => injected(parsedFirst(receiver)),
});

describeConformance({
  name: "fastify (listening on 127.0.0.1)",
  start: async (receiver) => listening(await mounted(receiver)),
  startWithBodyParsedFirst: (receiver) => listening(parsedFirst(receiver)),
});
