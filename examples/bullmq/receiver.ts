import { enqueueTo } from "@tidings/bullmq";
import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import { Queue } from "bullmq";
import express, { type Express } from "express";
import type { Redis } from "ioredis";
import { messageNotFound } from "../shared/message-log";
import { readMessage } from "./messages";

export interface ReceiverOptions {
  secret: string;
  /** The connection for the queue and the status reads. */
  redis: Redis;
  queue: string;
}

/** The web process: verify, dedup, enqueue, answer. No business code runs here. */
export function createApp({ secret, redis, queue }: ReceiverOptions): { app: Express; close(): Promise<void> } {
  const deliveries = new Queue(queue, { connection: redis });
  deliveries.on("error", (error) => console.error(`[queue] ${error.message}`));
  const receiver = createReceiver({ secret }).onAny(enqueueTo(deliveries));

  const app = express();
  app.all("/webhooks", webhookMiddleware(receiver));
  app.get("/messages/:id", async (req, res) => {
    const record = await readMessage(redis, req.params.id);
    if (record) res.json(record);
    else res.status(404).json(messageNotFound(req.params.id));
  });
  return { app, close: () => deliveries.close() };
}
