import type { DiscoveryService, MetadataScanner } from "@nestjs/core";
import { deliveryTypesOf } from "./on-delivery";
import type { AnyReceiver } from "./webhook-route";

/** Subscribes every `@OnDelivery` method of the app's singleton providers to the receiver. */
export function bindDeliveryHandlers(discovery: DiscoveryService, scanner: MetadataScanner, receiver: AnyReceiver) {
  for (const wrapper of discovery.getProviders()) {
    const { instance } = wrapper;
    if (!instance || typeof instance !== "object") continue;
    const prototype = Object.getPrototypeOf(instance);
    for (const name of scanner.getAllMethodNames(prototype)) {
      const types = deliveryTypesOf(prototype[name]);
      if (!types) continue;
      if (!wrapper.isDependencyTreeStatic()) {
        throw new Error(
          `@OnDelivery on ${wrapper.name}.${name}: the provider is request-scoped or transient, but deliveries are handled outside any Nest request. Make it a singleton (the default scope).`,
        );
      }
      receiver.on(types, (event, context) => instance[name](event, context));
    }
  }
}
