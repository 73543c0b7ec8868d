import type { EventMap, Receiver } from "@tidings/core";
import { targetOf } from "@tidings/core/adapter";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import type { RequestHandler } from "express";
import { parsedRawBody } from "./raw-body";

const CONSUMED_FIX =
  'In Express, mount the webhook route before app.use(express.json()), or put express.raw({ type: () => true }) on the route itself (app.post("/webhooks", express.raw({ type: () => true }), webhookMiddleware(receiver))), or keep the bytes with app.use(express.json({ verify: captureRawBody })).';

/**
 * Answers webhook deliveries itself: verify, dispatch to the receiver's handlers, write the result.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { webhookMiddleware } from "@tidings/express";
 * import express from "express";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log("delivered", event.data.id));
 *
 * const app = express();
 * app.post("/webhooks", webhookMiddleware(receiver)); // before any app.use(express.json())
 * app.use(express.json());
 * app.listen(3000);
 * ```
 */
export function webhookMiddleware<Events extends EventMap>(receiver: Receiver<Events>): RequestHandler {
  return (req, res, next) => {
    handleNodeRequest(receiver, req, {
      consumedFix: CONSUMED_FIX,
      decodedBody: parsedRawBody(req),
      // Under a router or `app.use(prefix, …)`, `req.url` lost the mount path; the sender called the whole of it.
      url: req.originalUrl,
      target: () => targetOf(req.originalUrl, req.route?.path, req.params),
    })
      .then((result) => writeNodeResponse(res, result))
      .catch(next);
  };
}
