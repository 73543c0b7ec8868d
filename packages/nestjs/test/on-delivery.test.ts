import { Inject, Injectable, Module, Scope } from "@nestjs/common";
import { createReceiver, type DeliveryContext, type MessageEvents, type Receiver } from "@tidings/core";
import { createOnDelivery, OnDelivery, TIDINGS_RECEIVER, TidingsModule } from "@tidings/nestjs";
import { afterEach, describe, expect, it } from "vitest";
import { deliver, eventBody, SECRET } from "./deliveries";
import { PLATFORMS, type RunningNestApp, startNestApp } from "./nest-app";

const handled: { by: string; type: string; event: unknown }[] = [];

@Injectable()
class StatusService {
  readonly prefix = "status";

  @OnDelivery("message.delivered")
  delivered(event: MessageEvents["message.delivered"], context: DeliveryContext) {
    handled.push({ by: `${this.prefix}.delivered`, type: context.type, event });
  }

  @OnDelivery(["message.sent", "message.failed"])
  @OnDelivery("message.queued")
  progress(event: MessageEvents["message.sent" | "message.failed" | "message.queued"]) {
    handled.push({ by: `${this.prefix}.progress`, type: event.type, event });
  }
}

/** Takes the receiver by its token, as any provider can, and subscribes the plain way. */
@Injectable()
class PlainSubscriber {
  constructor(@Inject(TIDINGS_RECEIVER) receiver: Receiver) {
    receiver.on("message.delivered", (event) => {
      handled.push({ by: "plain", type: event.type, event });
    });
  }
}

@Module({ providers: [StatusService, PlainSubscriber] })
class StatusModule {}

function appModule() {
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
  @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" }), StatusModule] })
  class AppModule {}
  return AppModule;
}

describe.each(PLATFORMS)("@OnDelivery on %s", (platform) => {
  let running: RunningNestApp | undefined;
  afterEach(async () => {
    handled.length = 0;
    await running?.close();
    running = undefined;
  });

  it("runs decorated provider methods of any module, bound to their instance, beside receiver.on handlers", async () => {
    running = await startNestApp(platform, appModule());
    for (const type of ["message.delivered", "message.sent", "message.queued", "message.clicked"]) {
      expect((await deliver(running.url("/webhooks"), eventBody(type))).status).toBe(200);
    }
    expect(handled.map(({ by, type }) => `${by}:${type}`).sort()).toEqual([
      "plain:message.delivered",
      "status.delivered:message.delivered",
      "status.progress:message.queued",
      "status.progress:message.sent",
    ]);
    expect(handled.find(({ by }) => by === "status.delivered")?.event).toMatchObject({ data: { id: "msg_1" } });
  });
});

describe("@OnDelivery on a provider that is not a singleton", () => {
  it("fails at startup with the reason", async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      @OnDelivery("message.delivered")
      delivered() {}
    }
    const receiver = createReceiver({ secret: SECRET });
    @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })], providers: [PerRequest] })
    class AppModule {}
    await expect(startNestApp("express", AppModule)).rejects.toThrow(/PerRequest\.delivered.*request-scoped/);
  });
});

describe("@OnDelivery types", () => {
  it("checks the event type names and the method's event parameter against the event map", () => {
    type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };
    const OnShipment = createOnDelivery<ShipmentEvents>();
    class Handlers {
      @OnShipment("shipment.sent")
      sent(event: ShipmentEvents["shipment.sent"]) {
        return event.trackingId;
      }
      // @ts-expect-error the map has no such type
      @OnShipment("shipment.lost")
      lost() {}
      // @ts-expect-error a delivered event is not a failed one
      @OnDelivery("message.delivered")
      wrongEvent(_event: MessageEvents["message.failed"]) {}
    }
    expect(new Handlers().sent({ type: "shipment.sent", trackingId: "t1" })).toBe("t1");
  });
});
