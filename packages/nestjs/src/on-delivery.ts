import type { DeliveryContext, EventMap, MessageEvents } from "@tidings/core";

// A string key in Reflect's global store (not a module-local WeakMap): the ESM and CJS builds, if an app loads both,
// still see each other's decorations.
const ON_DELIVERY = "tidings:on-delivery";

type DeliveryMethod<Event> = (event: Event, context: DeliveryContext) => unknown;

/**
 * Makes a typed `@OnDelivery` for an event map: `export const OnDelivery = createOnDelivery<MyEvents>()`.
 * The decorated method must accept the events of the types it names.
 *
 * @example
 * ```ts
 * import { Injectable } from "@nestjs/common";
 * import type { DeliveryContext } from "@tidings/core";
 * import { createOnDelivery } from "@tidings/nestjs";
 *
 * type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };
 * export const OnShipment = createOnDelivery<ShipmentEvents>(); // receiver: createReceiver<ShipmentEvents>(...)
 *
 * @Injectable()
 * export class Shipments {
 *   @OnShipment("shipment.sent")
 *   sent(event: ShipmentEvents["shipment.sent"], context: DeliveryContext) {
 *     console.log(`${event.trackingId} sent (${context.deliveryKey})`);
 *   }
 * }
 * ```
 */
export function createOnDelivery<Events extends EventMap>() {
  return <Type extends keyof Events & string>(types: Type | readonly Type[]) =>
    <Method extends DeliveryMethod<Events[Type]>>(
      _target: object,
      _key: string | symbol,
      descriptor: TypedPropertyDescriptor<Method>,
    ): void => {
      const method = descriptor.value as Method;
      const declared: readonly string[] = Reflect.getMetadata(ON_DELIVERY, method) ?? [];
      Reflect.defineMetadata(ON_DELIVERY, [...declared, ...(typeof types === "string" ? [types] : types)], method);
    };
}

/**
 * Runs the provider method for deliveries of these types: `@OnDelivery("message.delivered")`.
 *
 * @example
 * ```ts
 * import { Injectable } from "@nestjs/common";
 * import type { MessageEvents } from "@tidings/core";
 * import { OnDelivery } from "@tidings/nestjs";
 *
 * @Injectable() // a singleton provider of any module of the app
 * export class DeliveryLog {
 *   @OnDelivery("message.delivered")
 *   delivered(event: MessageEvents["message.delivered"]) {
 *     console.log(`${event.data.id} delivered via ${event.data.channel}`);
 *   }
 *
 *   @OnDelivery(["message.sent", "message.failed"])
 *   progressed(event: MessageEvents["message.sent" | "message.failed"]) {
 *     console.log(`${event.data.id} is ${event.data.status}`);
 *   }
 * }
 * ```
 */
export const OnDelivery = createOnDelivery<MessageEvents>();

/** The event types a method was decorated with, or undefined. */
export function deliveryTypesOf(method: unknown): readonly string[] | undefined {
  return typeof method === "function" ? Reflect.getMetadata(ON_DELIVERY, method) : undefined;
}
