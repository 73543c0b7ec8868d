import Router from "@koa/router";
import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/koa";
import Koa from "koa";
import type { AppOptions } from "../shared/config";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog, messageNotFound } from "../shared/message-log";

/** The receiver app, not yet listening: `createApp({ secret }).listen(3000)`. */
export function createApp({ secret, messages = new MessageLog(), log = console.log }: AppOptions): Koa {
  const receiver = createReceiver({ secret }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    log(formatEvent(event));
  });

  const router = new Router();
  router.all("/webhooks", webhookMiddleware(receiver)); // `all`: it answers other methods 405 itself
  router.get("/messages/:id", (ctx) => {
    const id = ctx.params.id ?? "";
    const record = messages.get(id);
    ctx.status = record ? 200 : 404;
    ctx.body = record ?? messageNotFound(id);
  });

  const app = new Koa();
  // The router comes before any body parser: the webhook must read the exact bytes that were signed.
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
