// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import { captureRawBody, webhookMiddleware } from "@tidings/express";
import express, { type RequestHandler, Router } from "express";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering webhookMiddleware on Express", () => {
  it("mounts as the README shows, on the app, a router and beside the body parsers", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const app = express();
    app.post("/webhooks", webhookMiddleware(receiver));
    app.all("/webhooks", webhookMiddleware(receiver));
    app.use("/webhooks", webhookMiddleware(receiver));
    app.post("/webhooks", express.raw({ type: () => true, limit: receiver.maxBodyBytes }), webhookMiddleware(receiver));
    app.use(express.json({ verify: captureRawBody }));
    Router().post("/webhooks", webhookMiddleware(receiver));
    expectTypeOf(webhookMiddleware(receiver)).toEqualTypeOf<RequestHandler>();
    expectTypeOf(
      webhookMiddleware(createReceiver<ShipmentEvents>({ secret: "whsec_types" })),
    ).toEqualTypeOf<RequestHandler>();
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    createReceiver<ShipmentEvents>({ secret: "whsec_types" }).on("shipment.sent", (event) => {
      expectTypeOf(event.trackingId).toEqualTypeOf<string>();
    });
    express().post("/webhooks", webhookMiddleware(receiver));
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const app = express();
    // @ts-expect-error the options of createReceiver are not a Receiver
    webhookMiddleware({ secret: "whsec_types" });
    // @ts-expect-error captureRawBody is body-parser's verify option, not a route handler
    app.post("/webhooks", captureRawBody, webhookMiddleware(receiver));
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
    receiver.on("message.delivered", (_event, context) => {
      // @ts-expect-error the verified body is bytes, not text
      const text: string = context.verifiedBody;
      return text;
    });
  });
});
