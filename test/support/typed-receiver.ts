import { createReceiver, type DeliveryContext, type MessageEvents } from "@tidings/core";
import { expectTypeOf } from "vitest";

/**
 * For the adapters' type tests: a Receiver whose handler asserts, at type level, what handlers get whatever mounts
 * them (the event of their type, and the verified bytes in the context). Each adapter's test registers it.
 */
export function typedReceiver() {
  return createReceiver({ secret: "whsec_types" }).on("message.delivered", (event, context) => {
    expectTypeOf(event).toEqualTypeOf<MessageEvents["message.delivered"]>();
    expectTypeOf(event.data.status).toEqualTypeOf<"delivered">();
    expectTypeOf(context).toEqualTypeOf<DeliveryContext>();
    expectTypeOf(context.verifiedBody).toEqualTypeOf<Uint8Array>();
  });
}
