import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { listenWithSupertest as listen } from "../supertest-client";
import { type AnyReceiver, type ConformanceTarget, PARAM_ROUTE, WEBHOOK_PATH } from "../target";

export const expressTarget: ConformanceTarget = {
  name: "express (Express 5, supertest)",
  start(receiver: AnyReceiver) {
    const app = express();
    app.all(WEBHOOK_PATH, webhookMiddleware(receiver));
    app.use(express.json());
    return listen(app);
  },
  startWithBodyParsedFirst(receiver: AnyReceiver) {
    const app = express();
    app.use(express.json());
    app.all(WEBHOOK_PATH, webhookMiddleware(receiver));
    return listen(app);
  },
  paramRoute: {
    start(receiver: AnyReceiver) {
      const app = express();
      app.all(PARAM_ROUTE, webhookMiddleware(receiver));
      app.use(express.json());
      return listen(app);
    },
    route: PARAM_ROUTE,
  },
};
