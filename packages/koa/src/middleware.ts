import type { EventMap, Receiver } from "@tidings/core";
import { handleNodeRequest } from "@tidings/core/node";
import type { Middleware } from "koa";

const CONSUMED_FIX =
  "In Koa, mount the webhook route before app.use(bodyParser()) (@koa/bodyparser, koa-body), or keep the parser off this path (put it on the routes that need it, or set ctx.disableBodyParser = true for the webhook path before it runs). The parser's ctx.request.rawBody is decoded text, not the signed bytes.";

const READ_OPTIONS = { consumedFix: CONSUMED_FIX };

/** Answers webhook deliveries on its route: reads ctx.req, verifies, dispatches, and sets the Koa response. */
export function webhookMiddleware<Events extends EventMap>(receiver: Receiver<Events>): Middleware {
  return async (ctx) => {
    const result = await handleNodeRequest(receiver, ctx.req, READ_OPTIONS);
    ctx.status = result.status;
    ctx.set(result.headers);
    ctx.body = result.body;
  };
}
