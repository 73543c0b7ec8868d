import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import tidings from "@tidings/fastify";
import Fastify, { type FastifyInstance, type HTTPMethods } from "fastify";
import { webhookHandler } from "../../../packages/fastify/src/handler";
import { sendOverHttp } from "../http-client";
import { partialBodyReadable, sendPartialOverSocket } from "../partial-body";
import {
  type AnyReceiver,
  type ConformanceTarget,
  PARAM_ROUTE,
  type RunningApp,
  WEBHOOK_PATH,
  type WireRequest,
  type WireResponse,
} from "../target";

/** The app as the README mounts it. */
async function mounted(receiver: AnyReceiver, path = WEBHOOK_PATH): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(tidings, { receiver, path });
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
  const inject = async (request: WireRequest, payload?: Buffer | Readable, headers = request.headers) => {
    const response = await app.inject({
      method: request.method as HTTPMethods,
      url: request.path ?? WEBHOOK_PATH,
      headers,
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, headers: flatten(response.headers), body: response.body };
  };
  return {
    send: (request): Promise<WireResponse> => inject(request, request.body && Buffer.from(request.body)),
    async sendPartial(request, bytes, ending) {
      const headers = { ...request.headers, "content-length": String(request.body?.byteLength ?? 0) };
      const answering = inject(request, partialBodyReadable(request, bytes, ending), headers);
      // light-my-request rejects with the payload's error: in process, that is how a client that went away looks.
      return ending === "abort"
        ? answering.then(
            () => undefined,
            () => undefined,
          )
        : answering;
    },
    close: () => app.close(),
  };
}

async function listening(app: FastifyInstance): Promise<RunningApp> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    send: (request) => sendOverHttp(baseUrl, WEBHOOK_PATH, request),
    sendPartial: (wire, bytes, ending) => sendPartialOverSocket(baseUrl, WEBHOOK_PATH, wire, bytes, ending),
    close: () => app.close(),
  };
}

export const fastifyInjectTarget: ConformanceTarget = {
  name: "fastify (app.inject)",
  start: async (receiver) => injected(await mounted(receiver)),
  startWithBodyParsedFirst: (receiver) => injected(parsedFirst(receiver)),
  paramRoute: { start: async (receiver) => injected(await mounted(receiver, PARAM_ROUTE)), route: PARAM_ROUTE },
};

export const fastifyListeningTarget: ConformanceTarget = {
  name: "fastify (listening on 127.0.0.1)",
  start: async (receiver) => listening(await mounted(receiver)),
  startWithBodyParsedFirst: (receiver) => listening(parsedFirst(receiver)),
  paramRoute: { start: async (receiver) => listening(await mounted(receiver, PARAM_ROUTE)), route: PARAM_ROUTE },
};
