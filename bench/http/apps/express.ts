import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline, INLINE_ROUTES } from "../inline-routes";
import { ADAPTER_ROUTES, ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody, type StartApp } from "../routes";
import { listen } from "./listen";

export const start: StartApp = async ({ receivers, hooks }) => {
  const app = express();
  app.post(ROUTES.bare, async (req, res) => {
    await hooks.arrive("bare", await readRequestBody(req));
    res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
  });
  for (const route of INLINE_ROUTES) {
    app.post(ROUTES[route], async (req, res) => {
      const body = await readRequestBody(req);
      const status = await answerInline(route, body, req.headers[SIGNATURE_HEADER] as string | undefined, hooks);
      if (status !== 200) return void res.writeHead(status).end();
      res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
    });
  }
  for (const route of ADAPTER_ROUTES) app.post(ROUTES[route], webhookMiddleware(receivers[route]));
  return listen(app);
};
