import type { DeliveryContext, EventMap, MessageEvents } from "@tidings/core";

// A string key in Reflect's global store (not a module-local WeakMap): the ESM and CJS builds, if an app loads both,
// still see each other's decorations.
const ON_DELIVERY = "tidings:on-delivery";

type DeliveryMethod<Event> = (event: Event, context: DeliveryContext) => unknown;

/**
 * Makes a typed `@OnDelivery` for an event map: `export const OnDelivery = createOnDelivery<MyEvents>()`.
 * The decorated method must accept the events of the types it names.
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

/** Runs the provider method for deliveries of these types: `@OnDelivery("message.delivered")`. */
export const OnDelivery = createOnDelivery<MessageEvents>();

/** The event types a method was decorated with, or undefined. */
export function deliveryTypesOf(method: unknown): readonly string[] | undefined {
  return typeof method === "function" ? Reflect.getMetadata(ON_DELIVERY, method) : undefined;
}
