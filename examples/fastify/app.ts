import { createReceiver } from "@tidings/core";
import tidings from "@tidings/fastify";
import Fastify, { type FastifyInstance } from "fastify";
import type { AppOptions } from "../shared/config";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog, messageNotFound } from "../shared/message-log";

/** The receiver app, plugins registered, not yet listening: `(await createApp({ secret })).listen({ port: 3000 })`. */
export async function createApp({
  secret,
  messages = new MessageLog(),
  log = console.log,
}: AppOptions): Promise<FastifyInstance> {
  const receiver = createReceiver({ secret }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    log(formatEvent(event));
  });

  const app = Fastify();
  // The plugin declares the route and reads its body as raw bytes in its own scope; other routes keep JSON parsing.
  await app.register(tidings, { receiver, path: "/webhooks" });

  app.get<{ Params: { id: string } }>("/messages/:id", async (request, reply) => {
    const record = messages.get(request.params.id);
    return record ?? reply.code(404).send(messageNotFound(request.params.id));
  });
  return app;
}
