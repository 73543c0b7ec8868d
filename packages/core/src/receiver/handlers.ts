import type { HeaderSource } from "../http/headers";
import type { EventMap } from "./events";

/** What a handler learns about the delivery besides the event. */
export interface DeliveryContext {
  /** The event type, as read by `typeOf`. */
  type: string;
  /** The dedup key: `event:<id>` when the event has an id, else `signature:<matched v1>`. */
  deliveryKey: string;
  /** The signed timestamp, Unix seconds. */
  timestamp: number;
  /** Which configured secret verified the delivery. */
  secretIndex: number;
  /** The verified body bytes. */
  rawBody: Uint8Array;
  headers: HeaderSource;
}

/** What it returns is ignored, except that a promise is awaited (a row from a database write is fine). */
export type Handler<Event> = (event: Event, context: DeliveryContext) => unknown;

/** Every event of a map, as a union: what `onAny` handlers receive. */
export type AnyEvent<Events extends EventMap> = Events[keyof Events];

/** Handlers by event type, plus the ones that take every event. */
export class HandlerRegistry {
  readonly #byType = new Map<string, Handler<unknown>[]>();
  readonly #any: Handler<unknown>[] = [];

  add(types: string | readonly string[], handler: Handler<never>): void {
    for (const type of typeof types === "string" ? [types] : types) {
      const list = this.#byType.get(type) ?? [];
      list.push(handler as Handler<unknown>);
      this.#byType.set(type, list);
    }
  }

  addAny(handler: Handler<never>): void {
    this.#any.push(handler as Handler<unknown>);
  }

  /** The handlers for one type, then the catch-all ones (a new list only when there are both). */
  for(type: string): readonly Handler<unknown>[] {
    const typed = this.#byType.get(type);
    if (!typed) return this.#any;
    return this.#any.length === 0 ? typed : [...typed, ...this.#any];
  }
}
