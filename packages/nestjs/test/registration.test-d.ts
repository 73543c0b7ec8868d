// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { type DynamicModule, Inject, Injectable, Module } from "@nestjs/common";
import { ConfigModule, ConfigService } from "@nestjs/config";
import { createReceiver, type DeliveryContext, type MessageEvents, type Receiver } from "@tidings/core";
import {
  createOnDelivery,
  OnDelivery,
  TIDINGS_RECEIVER,
  TidingsModule,
  type TidingsModuleAsyncOptions,
  type TidingsModuleOptions,
} from "@tidings/nestjs";
import { describe, expectTypeOf, it } from "vitest";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };
const OnShipment = createOnDelivery<ShipmentEvents>();
const receiver = createReceiver({ secret: "whsec_types" });

@Injectable()
class DeliveryLog {
  constructor(@Inject(TIDINGS_RECEIVER) readonly receiver: Receiver) {}

  @OnDelivery("message.delivered")
  delivered(event: MessageEvents["message.delivered"], context: DeliveryContext) {
    expectTypeOf(event.data.status).toEqualTypeOf<"delivered">();
    expectTypeOf(context.verifiedBody).toEqualTypeOf<Uint8Array>();
  }

  @OnDelivery(["message.sent", "message.delivered"])
  progressed(event: MessageEvents["message.sent" | "message.delivered"]) {
    return event.data.id;
  }

  @OnShipment("shipment.sent")
  shipped(event: ShipmentEvents["shipment.sent"]) {
    return event.trackingId;
  }
}

@Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })], providers: [DeliveryLog] })
class AppModule {}

@Module({
  imports: [
    TidingsModule.forRootAsync({
      imports: [ConfigModule.forRoot()],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        receiver: createReceiver({ secret: config.getOrThrow<string>("WEBHOOK_SECRET") }),
        path: "/webhooks",
      }),
    }),
  ],
})
class AsyncAppModule {}

describe("registering TidingsModule and @OnDelivery", () => {
  it("imports as the README shows: forRoot, forRootAsync with ConfigService, typed @OnDelivery methods", () => {
    expectTypeOf(TidingsModule.forRoot).parameter(0).toEqualTypeOf<TidingsModuleOptions>();
    expectTypeOf(TidingsModule.forRoot({ receiver, path: "webhooks" })).toEqualTypeOf<DynamicModule>();
    expectTypeOf(TidingsModule.forRootAsync).parameter(0).toEqualTypeOf<TidingsModuleAsyncOptions>();
    TidingsModule.forRoot({ receiver: createReceiver<ShipmentEvents>({ secret: "whsec_types" }), path: "/ship" });
    return [AppModule, AsyncAppModule];
  });

  it("gives receiver.on handlers the event of their type and the verified bytes", () => {
    receiver.on("message.delivered", (event, context) => {
      expectTypeOf(event).toEqualTypeOf<MessageEvents["message.delivered"]>();
      expectTypeOf(context).toEqualTypeOf<DeliveryContext>();
      expectTypeOf(context.verifiedBody).toEqualTypeOf<Uint8Array>();
    });
  });

  it("refuses a wrong option name or type, a non-receiver, an unknown event type and a mistyped method", () => {
    // @ts-expect-error the option is `path`
    TidingsModule.forRoot({ receiver, route: "/webhooks" });
    // @ts-expect-error `path` is a string
    TidingsModule.forRoot({ receiver, path: ["webhooks"] });
    // @ts-expect-error the options of createReceiver are not a Receiver
    TidingsModule.forRoot({ receiver: { secret: "whsec_types" }, path: "/webhooks" });
    // @ts-expect-error the factory gives the module's options, not the receiver's
    TidingsModule.forRootAsync({ useFactory: () => ({ secret: "whsec_types", path: "/webhooks" }) });

    class Misdecorated {
      // @ts-expect-error no such event type in MessageEvents
      @OnDelivery("message.bounced")
      bounced() {}

      // @ts-expect-error a method for delivered events cannot take failed ones
      @OnDelivery("message.delivered")
      delivered(_event: MessageEvents["message.failed"]) {}

      // @ts-expect-error shipment types belong to OnShipment's map, not to MessageEvents
      @OnDelivery("shipment.sent")
      shipped() {}
    }
    return Misdecorated;
  });
});
