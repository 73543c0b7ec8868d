import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express, { type Express } from "express";
import type { AppOptions } from "../shared/config";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog, messageNotFound } from "../shared/message-log";

/** The receiver app, not yet listening: `createApp({ secret }).listen(3000)`. */
export function createApp({ secret, messages = new MessageLog(), log = console.log, order }: AppOptions): Express {
  const receiver = createReceiver({ secret, ...(order && { order }) }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    log(formatEvent(event));
  });

  const app = express();
  // Before any body parser: the webhook reads the exact bytes that were signed. `all` lets it answer 405 to GET etc.
  app.all("/webhooks", webhookMiddleware(receiver));
  app.use(express.json());

  app.get("/messages/:id", (req, res) => {
    const record = messages.get(req.params.id);
    if (record) res.json(record);
    else res.status(404).json(messageNotFound(req.params.id));
  });
  return app;
}
