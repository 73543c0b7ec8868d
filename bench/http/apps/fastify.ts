import tidings from "@tidings/fastify";
import Fastify from "fastify";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { verifyInline } from "../ideal";
import { ADAPTER_ROUTES, ANSWER_BODY, ANSWER_HEADERS, ROUTES, type StartApp } from "../routes";

export const start: StartApp = async ({ receivers, hooks, maxBodyBytes }) => {
  const app = Fastify({ logger: false });
  // Hand-written routes get the raw bytes the way the plugin does: a buffer parser in their own scope.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: maxBodyBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(ROUTES.bare, async (request, reply) => {
      await hooks.arrive("bare", request.body);
      return reply.code(200).headers(ANSWER_HEADERS).send(ANSWER_BODY);
    });
    scope.post(ROUTES.ideal, async (request, reply) => {
      const body = request.body as Buffer;
      const event = verifyInline(body, request.headers[SIGNATURE_HEADER] as string | undefined);
      if (event === undefined) return reply.code(400).send();
      await hooks.arrive("ideal", { body, event });
      return reply.code(200).headers(ANSWER_HEADERS).send(ANSWER_BODY);
    });
  });
  for (const route of ADAPTER_ROUTES) await app.register(tidings, { receiver: receivers[route], path: ROUTES[route] });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("fastify: no TCP address");
  return { port: address.port, close: () => app.close() };
};
