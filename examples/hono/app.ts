import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";
import { Hono } from "hono";
import type { AppOptions } from "../shared/config";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog, messageNotFound } from "../shared/message-log";

/** The receiver app: `serve({ fetch: createApp({ secret }).fetch, port: 3000 })`, or any runtime's `fetch` export. */
export function createApp({ secret, messages = new MessageLog(), log = console.log }: AppOptions): Hono {
  const receiver = createReceiver({ secret }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    log(formatEvent(event));
  });
  const handleWebhook = createFetchHandler(receiver);

  const app = new Hono();
  // The untouched Request: no validator or middleware may read the body first. `all`: it answers 405 to GET etc.
  app.all("/webhooks", (c) => handleWebhook(c.req.raw));
  app.get("/messages/:id", (c) => {
    const id = c.req.param("id");
    const record = messages.get(id);
    return record ? c.json(record) : c.json(messageNotFound(id), 404);
  });
  return app;
}
