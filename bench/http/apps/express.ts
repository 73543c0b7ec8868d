import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { verifyInline } from "../ideal";
import { ADAPTER_ROUTES, ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody, type StartApp } from "../routes";
import { listen } from "./listen";

export const start: StartApp = async ({ receivers, hooks }) => {
  const app = express();
  app.post(ROUTES.bare, async (req, res) => {
    await hooks.arrive("bare", await readRequestBody(req));
    res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
  });
  app.post(ROUTES.ideal, async (req, res) => {
    const body = await readRequestBody(req);
    const event = verifyInline(body, req.headers[SIGNATURE_HEADER] as string | undefined);
    if (event === undefined) return void res.writeHead(400).end();
    await hooks.arrive("ideal", { body, event });
    res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
  });
  for (const route of ADAPTER_ROUTES) app.post(ROUTES[route], webhookMiddleware(receivers[route]));
  return listen(app);
};
