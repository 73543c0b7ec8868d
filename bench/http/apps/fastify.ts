import tidings from "@tidings/fastify";
import Fastify from "fastify";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline, INLINE_ROUTES } from "../inline-routes";
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
    for (const route of INLINE_ROUTES) {
      scope.post(ROUTES[route], async (request, reply) => {
        const header = request.headers[SIGNATURE_HEADER] as string | undefined;
        const status = await answerInline(route, request.body as Buffer, header, hooks);
        if (status !== 200) return reply.code(status).send();
        return reply.code(200).headers(ANSWER_HEADERS).send(ANSWER_BODY);
      });
    }
  });
  for (const route of ADAPTER_ROUTES) await app.register(tidings, { receiver: receivers[route], path: ROUTES[route] });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("fastify: no TCP address");
  return { port: address.port, close: () => app.close() };
};
