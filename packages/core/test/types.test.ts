import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createReceiver, type DeliveryContext, type DeliveryEvent, type MessageEvents } from "../src/entries";

// These assertions are checked by `tsc --noEmit` (npm run typecheck); the @ts-expect-error lines fail the
// type check if the error they expect goes away. At run time the bodies only register handlers.
describe("event typing", () => {
  it("types handlers of the default MessageEvents map by event type", () => {
    const receiver = createReceiver({ secret: "s" });
    expectTypeOf(receiver).toEqualTypeOf<ReturnType<typeof createReceiver<MessageEvents>>>();
    receiver.on("message.delivered", (event, context) => {
      expectTypeOf(event.type).toEqualTypeOf<"message.delivered">();
      expectTypeOf(event.data.status).toEqualTypeOf<"delivered">();
      expectTypeOf(event.data.channel).toEqualTypeOf<"sms" | "email" | "push">();
      expectTypeOf(event.data.id).toEqualTypeOf<string>();
      expectTypeOf(context).toEqualTypeOf<DeliveryContext>();
    });
    receiver.on(["message.sent", "message.failed"], (event) => {
      expectTypeOf(event.type).toEqualTypeOf<"message.sent" | "message.failed">();
    });
    // @ts-expect-error a misspelled event type does not compile
    receiver.on("message.delivred", () => {});
    // @ts-expect-error the handler's event is the delivered event, not any object
    receiver.on("message.delivered", (event: { type: "message.sent" }) => event);
    receiver.onAny((event) => {
      expectTypeOf(event).toEqualTypeOf<MessageEvents[keyof MessageEvents] | DeliveryEvent>();
    });
  });

  it("lets a handler return anything, as a database write does", () => {
    const markDelivered = async (id: string) => ({ id, updated: 1 });
    const receiver = createReceiver({ secret: "s" });
    expectTypeOf(receiver.on("message.delivered", (event) => markDelivered(event.data.id))).toEqualTypeOf(receiver);
    expectTypeOf(receiver.onAny((event) => event)).toEqualTypeOf(receiver);
  });

  it("types handlers of a declared map and refuses types outside it", () => {
    type Events = { "order.paid": { type: "order.paid"; amount: number } };
    const receiver = createReceiver<Events>({ secret: "s" });
    receiver.on("order.paid", (event) => {
      expectTypeOf(event.amount).toEqualTypeOf<number>();
    });
    // @ts-expect-error not in the declared map
    receiver.on("message.delivered", () => {});
  });

  it("infers the map from Standard Schema validators", () => {
    const receiver = createReceiver({
      secret: "s",
      schemas: { "invoice.created": z.object({ type: z.literal("invoice.created"), total: z.coerce.number() }) },
    });
    receiver.on("invoice.created", (event) => {
      expectTypeOf(event.total).toEqualTypeOf<number>();
    });
    // @ts-expect-error only the schema's types exist on this receiver
    receiver.on("message.delivered", () => {});
  });
});
