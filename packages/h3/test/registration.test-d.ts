// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import { defineWebhookHandler, type H3EventLike, type WebhookEventHandler } from "@tidings/h3";
import { H3, type H3Event } from "h3";
import { createApp, createRouter, type EventHandler, type H3Event as H3EventV1 } from "h3-v1";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering defineWebhookHandler on h3", () => {
  it("mounts on h3 v2 and on h3 v1, as the README shows, and is a Nitro route's default export", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    new H3().post("/webhooks", defineWebhookHandler(receiver));
    new H3().all("/webhooks/:account", defineWebhookHandler(createReceiver<ShipmentEvents>({ secret: "whsec_types" })));
    createApp().use(createRouter().post("/webhooks", defineWebhookHandler(receiver)));
    expectTypeOf(defineWebhookHandler(receiver)).toEqualTypeOf<WebhookEventHandler>();
    expectTypeOf(defineWebhookHandler(receiver)).toExtend<EventHandler>();
    expectTypeOf<H3Event>().toExtend<H3EventLike>();
    expectTypeOf<H3EventV1>().toExtend<H3EventLike>();
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    new H3().post("/webhooks", defineWebhookHandler(receiver));
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    // @ts-expect-error the options of createReceiver are not a Receiver
    defineWebhookHandler({ secret: "whsec_types" });
    // @ts-expect-error the factory itself is not an event handler: call it with the receiver
    new H3().post("/webhooks", defineWebhookHandler);
    // @ts-expect-error an unmarked function is not an h3 v1 event handler; defineWebhookHandler's result is marked
    const unmarked: WebhookEventHandler = async (_event: H3EventLike) => new Response();
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
    return unmarked;
  });
});
