import { webhookMiddleware } from "@tidings/koa";
import Koa from "koa";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline } from "../inline-routes";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody, type StartApp } from "../routes";
import { adapterByPath } from "./adapter-by-path";
import { listen } from "./listen";

export const start: StartApp = async ({ receivers, hooks }) => {
  const app = new Koa();
  const adapters = adapterByPath(receivers, webhookMiddleware);
  // Koa has no router of its own: one middleware dispatches on the path, the same way for every route.
  app.use(async (ctx, next) => {
    if (ctx.method !== "POST") return next();
    switch (ctx.path) {
      case ROUTES.bare:
        await hooks.arrive("bare", await readRequestBody(ctx.req));
        break;
      case ROUTES.ideal:
      case ROUTES.idealDedup: {
        const route = ctx.path === ROUTES.ideal ? "ideal" : "idealDedup";
        const body = await readRequestBody(ctx.req);
        const status = await answerInline(route, body, ctx.get(SIGNATURE_HEADER) || undefined, hooks);
        if (status !== 200) {
          ctx.status = status;
          return;
        }
        break;
      }
      default: {
        const adapter = adapters.get(ctx.path);
        return adapter ? adapter(ctx, next) : next();
      }
    }
    ctx.status = 200;
    ctx.set(ANSWER_HEADERS);
    ctx.body = ANSWER_BODY;
  });
  return listen(app.callback());
};
