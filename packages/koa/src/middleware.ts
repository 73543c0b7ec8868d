import type { EventMap, Receiver } from "@tidings/core";
import { targetOf } from "@tidings/core/adapter";
import { handleNodeRequest } from "@tidings/core/node";
import type { Middleware } from "koa";

const CONSUMED_FIX =
  "In Koa, mount the webhook route before app.use(bodyParser()) (@koa/bodyparser, koa-body), or keep the parser off this path (put it on the routes that need it, or set ctx.disableBodyParser = true for the webhook path before it runs). The parser's ctx.request.rawBody is decoded text, not the signed bytes.";

/** What a router (@koa/router) matched, where one ran. */
interface RoutedContext {
  params?: object;
  _matchedRoute?: string | RegExp;
}

/**
 * Answers webhook deliveries on its route: reads ctx.req, verifies, dispatches, and sets the Koa response.
 *
 * @example
 * ```ts
 * import { bodyParser } from "@koa/bodyparser";
 * import Router from "@koa/router";
 * import { createReceiver } from "@tidings/core";
 * import { webhookMiddleware } from "@tidings/koa";
 * import Koa from "koa";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log("delivered", event.data.id));
 *
 * const app = new Koa();
 * app.use(new Router().post("/webhooks", webhookMiddleware(receiver)).routes()); // before bodyParser()
 * app.use(bodyParser());
 * app.listen(3000);
 * ```
 */
export function webhookMiddleware<Events extends EventMap>(receiver: Receiver<Events>): Middleware {
  return async (ctx) => {
    const { params, _matchedRoute: route } = ctx as RoutedContext;
    const result = await handleNodeRequest(receiver, ctx.req, {
      consumedFix: CONSUMED_FIX,
      // koa-mount rewrites the path under its prefix; the sender called the whole of it.
      url: ctx.originalUrl,
      target: () => targetOf(ctx.originalUrl, typeof route === "string" ? route : undefined, params),
    });
    ctx.status = result.status;
    ctx.set(result.headers);
    ctx.body = result.body;
  };
}
