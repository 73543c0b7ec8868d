import type { Receiver } from "@tidings/core";
import { ADAPTER_ROUTES, type AdapterRoute, ROUTES } from "../routes";

/** For apps that dispatch on the path themselves: each adapter route's path and its adapter, made with `adapt`. */
export function adapterByPath<Adapter>(
  receivers: Record<AdapterRoute, Receiver>,
  adapt: (receiver: Receiver) => Adapter,
): Map<string, Adapter> {
  return new Map(ADAPTER_ROUTES.map((route) => [ROUTES[route], adapt(receivers[route])]));
}
