import type { DeliveryEvent } from "../event";
import type { EventMap, MessageEvents } from "../event-map";
import { isPromiseLike } from "../ground/promise-like";
import { wholeNumber } from "../ground/whole-numbers";
import type { ObjectPosition, OrderedClaimResult, OrderedDeliveryStore } from "../store/delivery-store";
import type { AnyEvent } from "./handlers";

/**
 * How events are ordered: which object an event is about (`key`) and where it stands in that object's history
 * (`position`). For each object, handlers run for one event at a time, in strictly increasing position; an event at or
 * below the position already handled is stale. An event with no key or no finite position runs unordered.
 *
 * @example
 * ```ts
 * import { createReceiver, type EventOrder } from "@tidings/core";
 *
 * type Events = { "account.updated": { id: string; type: "account.updated"; account: string; updatedAt: string } };
 *
 * // Per account, one event at a time, in `updatedAt` order; an older update arriving late is answered stale.
 * const byAccount: EventOrder<Events> = {
 *   key: (event) => event.account,
 *   position: (event) => Date.parse(event.updatedAt),
 * };
 *
 * export const receiver = createReceiver<Events>({ secret: process.env.WEBHOOK_SECRET!, order: byAccount });
 * ```
 */
export interface EventOrder<Events extends EventMap = MessageEvents> {
  key(event: AnyEvent<Events>): string | undefined;
  position(event: AnyEvent<Events>): number | undefined;
}

const STATUS_POSITIONS: Readonly<Record<string, number>> = {
  "message.queued": 1,
  "message.sent": 2,
  "message.delivered": 3,
  "message.failed": 3,
};

/**
 * The order of the default `MessageEvents`: per message (`data.id`), queued 1, sent 2, then delivered or failed 3.
 * Both final statuses share a position, so of two the first handled stands and the other is stale.
 *
 * @example
 * ```ts
 * import { createReceiver, MESSAGE_EVENT_TYPES, messageStatusOrder } from "@tidings/core";
 *
 * const statuses = new Map<string, string>(); // stands in for your database
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, order: messageStatusOrder })
 *   // Never an older status after a newer one, never two of one message at once: a plain write is safe.
 *   .on(MESSAGE_EVENT_TYPES, (event) => statuses.set(event.data.id, event.data.status));
 * ```
 */
export const messageStatusOrder: EventOrder<MessageEvents> = {
  key: (event) => (typeof event.data?.id === "string" && event.data.id !== "" ? event.data.id : undefined),
  position: (event) => (Object.hasOwn(STATUS_POSITIONS, event.type) ? STATUS_POSITIONS[event.type] : undefined),
};

/** How long a busy object is waited for, by default, before the answer is 409 `object_busy`. */
export const DEFAULT_ORDER_WAIT_MS = 1000;

/** `orderWaitMs`, checked at setup: a whole number of ms, zero allowed (no wait). */
export function orderWaitMs(value = DEFAULT_ORDER_WAIT_MS): number {
  return wholeNumber(value, "orderWaitMs");
}

/** The event's object (in `scope`, if any) and position, or undefined when it is not ordered. */
export function positionOf(
  order: EventOrder<EventMap>,
  event: unknown,
  scope: (object: string) => string,
): ObjectPosition | undefined {
  const object = order.key(event as DeliveryEvent);
  if (typeof object !== "string" || object === "") return undefined;
  const position = order.position(event as DeliveryEvent);
  if (typeof position !== "number" || !Number.isFinite(position)) return undefined;
  return { object: scope(object), position };
}

const FIRST_POLL_MS = 5;
const LONGEST_POLL_MS = 100;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The ordered claim, asked again while the object is busy, for up to `waitMs`: one store round trip when the object
 * is free, as it nearly always is. Synchronous when the store is and the object is free.
 */
export function claimInOrder(
  store: OrderedDeliveryStore,
  key: string,
  leaseMs: number,
  order: ObjectPosition,
  ttlMs: number,
  waitMs: number,
): OrderedClaimResult | Promise<OrderedClaimResult> {
  const first = store.claimInOrder(key, leaseMs, order, ttlMs);
  if (isPromiseLike(first)) {
    return Promise.resolve(first).then((claim) =>
      claim.state === "busy" && waitMs > 0 ? waitForObject(store, key, leaseMs, order, ttlMs, waitMs) : claim,
    );
  }
  return first.state === "busy" && waitMs > 0 ? waitForObject(store, key, leaseMs, order, ttlMs, waitMs) : first;
}

async function waitForObject(
  store: OrderedDeliveryStore,
  key: string,
  leaseMs: number,
  order: ObjectPosition,
  ttlMs: number,
  waitMs: number,
): Promise<OrderedClaimResult> {
  const deadline = Date.now() + waitMs;
  let pause = FIRST_POLL_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { state: "busy" };
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, LONGEST_POLL_MS);
    const claim = await store.claimInOrder(key, leaseMs, order, ttlMs);
    if (claim.state !== "busy") return claim;
  }
}
