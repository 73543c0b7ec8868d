import { createReceiver } from "@tidings/core";
import tidings from "@tidings/fastify";
import { enqueueTo } from "@tidings/pg-boss";
import Fastify, { type FastifyInstance } from "fastify";
import type { PgBoss } from "pg-boss";
import { messageNotFound } from "../shared/message-log";
import { readMessage } from "./messages";

export interface ReceiverOptions {
  secret: string;
  /** A started PgBoss: the queue, and the connection for the status reads. */
  boss: PgBoss;
  queue: string;
}

/** The web process: verify, dedup, enqueue, answer. No business code runs here. */
export async function createApp({ secret, boss, queue }: ReceiverOptions): Promise<FastifyInstance> {
  const receiver = createReceiver({ secret }).onAny(enqueueTo({ boss, queue }));
  const app = Fastify();
  await app.register(tidings, { receiver, path: "/webhooks" });
  app.get<{ Params: { id: string } }>("/messages/:id", async (request, reply) => {
    const record = await readMessage(boss, request.params.id);
    return record ?? reply.code(404).send(messageNotFound(request.params.id));
  });
  return app;
}
