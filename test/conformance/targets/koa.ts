import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import { webhookMiddleware } from "@tidings/koa";
import Koa from "koa";
import { listenWithSupertest as listen } from "../supertest-client";
import { type AnyReceiver, type ConformanceTarget, PARAM_ROUTE, WEBHOOK_PATH } from "../target";

function webhookRoutes(receiver: AnyReceiver, path = WEBHOOK_PATH) {
  return new Router().all(path, webhookMiddleware(receiver)).routes();
}

export const koaTarget: ConformanceTarget = {
  name: "koa (Koa 3 + @koa/router, supertest)",
  start(receiver: AnyReceiver) {
    const app = new Koa();
    app.use(webhookRoutes(receiver));
    app.use(bodyParser());
    return listen(app.callback());
  },
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const app = new Koa();
    app.use(bodyParser());
    app.use(webhookRoutes(receiver));
    return listen(app.callback());
  },
  paramRoute: {
    start(receiver: AnyReceiver) {
      const app = new Koa();
      app.use(webhookRoutes(receiver, PARAM_ROUTE));
      app.use(bodyParser());
      return listen(app.callback());
    },
    route: PARAM_ROUTE,
  },
};
