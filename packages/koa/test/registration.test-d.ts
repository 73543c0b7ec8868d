// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import Router from "@koa/router";
import { createReceiver, type MessageEvents } from "@tidings/core";
import { webhookMiddleware } from "@tidings/koa";
import Koa from "koa";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering webhookMiddleware on Koa", () => {
  it("mounts as the README shows, on a @koa/router route or as the app's middleware", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const router = new Router();
    router.post("/webhooks", webhookMiddleware(receiver));
    router.all("/webhooks/:account", webhookMiddleware(createReceiver<ShipmentEvents>({ secret: "whsec_types" })));
    const app = new Koa();
    app.use(router.routes());
    app.use(webhookMiddleware(receiver));
    expectTypeOf(webhookMiddleware(receiver)).toEqualTypeOf<Koa.Middleware>();
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    new Router().post("/webhooks", webhookMiddleware(receiver));
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    // @ts-expect-error the options of createReceiver are not a Receiver
    webhookMiddleware({ secret: "whsec_types" });
    // @ts-expect-error the factory itself is not a middleware: call it with the receiver
    new Koa().use(webhookMiddleware);
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
  });
});
