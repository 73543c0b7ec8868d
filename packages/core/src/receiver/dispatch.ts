import type { DeliveryEvent } from "../event";
import type { EventMap } from "./events";
import type { AnyEvent, DeliveryInfo, Handler } from "./handlers";
import { isPromiseLike } from "./promise-like";

/**
 * Hears a failure, with what is known about it (`info`'s shape is the caller's: a Receiver's, a worker's). May return
 * a promise: a rejection is logged, never left unhandled.
 */
export type ErrorListener<Info> = (error: unknown, info: Info) => unknown;

/**
 * The one handler registry and dispatch rule of Tidings, used by the Receiver and every queue worker: typed handlers
 * by event type plus catch-all ones; every handler runs, even when another fails, and the failures are collected.
 * A handler written for a Receiver therefore runs unchanged in a worker.
 */
export class Dispatcher<Events extends EventMap, Context extends DeliveryInfo> {
  readonly #byType = new Map<string, Handler<unknown, Context>[]>();
  readonly #any: Handler<unknown, Context>[] = [];

  /** Runs `handler` for events of these types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type], Context>): void {
    for (const type of typeof types === "string" ? [types] : types) {
      const list = this.#byType.get(type) ?? [];
      list.push(handler as Handler<unknown, Context>);
      this.#byType.set(type, list);
    }
  }

  /** Runs `handler` for every event, including types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, Context>): void {
    this.#any.push(handler as Handler<unknown, Context>);
  }

  /**
   * Runs every handler for the event (all of them, even when one fails); what they threw, once they settled.
   * Synchronous when every handler is, so a Receiver with synchronous handlers answers in one turn.
   */
  dispatch(event: unknown, context: Context): unknown[] | Promise<unknown[]> {
    const failures: unknown[] = [];
    const pending: PromiseLike<unknown>[] = [];
    const typed = this.#byType.get(context.type);
    // The handlers for the type, then the catch-all ones (a new list only when there are both).
    const handlers = !typed ? this.#any : this.#any.length === 0 ? typed : [...typed, ...this.#any];
    for (const handler of handlers) {
      try {
        const returned = handler(event, context);
        if (isPromiseLike(returned)) pending.push(returned.then(undefined, (error) => failures.push(error)));
      } catch (error) {
        failures.push(error);
      }
    }
    return pending.length === 0 ? failures : Promise.all(pending).then(() => failures);
  }
}

/** Tells each listener; one that throws or rejects is logged, and never stops the others or escapes unhandled. */
export function notifyListeners<Info>(
  listeners: readonly ErrorListener<Info>[],
  error: unknown,
  info: Info,
  logger: { error(...values: unknown[]): void },
): void {
  const failed = (listenerError: unknown) => logger.error("[tidings] an onError handler failed", listenerError);
  for (const listener of listeners) {
    try {
      const returned = listener(error, info);
      if (isPromiseLike(returned)) returned.then(undefined, failed);
    } catch (listenerError) {
      failed(listenerError);
    }
  }
}
