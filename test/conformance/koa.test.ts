import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import { webhookMiddleware } from "@tidings/koa";
import Koa from "koa";
import supertest from "supertest";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH, type WireRequest } from "./target";

/** Serves the app on loopback and drives it with supertest, sending the body bytes exactly as given. */
async function listen(listener: RequestListener): Promise<RunningApp> {
  const server = createServer(listener).listen(0, "127.0.0.1");
  await once(server, "listening");
  const send = async (wire: WireRequest) => {
    // The identity serializer stops superagent from JSON.stringify-ing a Buffer sent as application/json.
    const request = new supertest.Test(server, wire.method, WEBHOOK_PATH).set(wire.headers).serialize((body) => body);
    const response = await (wire.body ? request.send(Buffer.from(wire.body)) : request).ok(() => true);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers as Record<string, string | string[]>)) {
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    return { status: response.status, headers, body: response.text };
  };
  return { send, close: () => new Promise((done) => server.close(() => done())) };
}

function webhookRoutes(receiver: AnyReceiver) {
  return new Router().all(WEBHOOK_PATH, webhookMiddleware(receiver)).routes();
}

describeConformance({
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
});
