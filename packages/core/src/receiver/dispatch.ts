import type { DeliveryEvent } from "../event";
import type { EventMap } from "./events";
import type { AnyEvent, DeliveryInfo, Handler } from "./handlers";
import { isPromiseLike } from "./promise-like";

/** Hears a failure, with what is known about it (`info`'s shape is the caller's: a Receiver's, a worker's). */
export type ErrorListener<Info> = (error: unknown, info: Info) => void;

export interface Logger {
  error(...values: unknown[]): void;
}

/**
 * The one registry and dispatch rule of Tidings, shared by the Receiver and every queue worker: typed handlers
 * by event type plus catch-all ones, every handler runs even when another fails, and failures are collected.
 * A handler written for a Receiver therefore runs unchanged in a worker.
 */
export class Dispatcher<Events extends EventMap, Context extends DeliveryInfo, Info extends { code: string }> {
  readonly #byType = new Map<string, Handler<unknown, Context>[]>();
  readonly #any: Handler<unknown, Context>[] = [];
  readonly #errorListeners: ErrorListener<Info>[] = [];

  constructor(readonly logger: Logger) {}

  /** Runs `handler` for events of these types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type], Context>): this {
    for (const type of typeof types === "string" ? [types] : types) {
      const list = this.#byType.get(type) ?? [];
      list.push(handler as Handler<unknown, Context>);
      this.#byType.set(type, list);
    }
    return this;
  }

  /** Runs `handler` for every event, including types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, Context>): this {
    this.#any.push(handler as Handler<unknown, Context>);
    return this;
  }

  onError(listener: ErrorListener<Info>): this {
    this.#errorListeners.push(listener);
    return this;
  }

  /** The handlers for one type, then the catch-all ones (a new list only when there are both). */
  handlersFor(type: string): readonly Handler<unknown, Context>[] {
    const typed = this.#byType.get(type);
    if (!typed) return this.#any;
    return this.#any.length === 0 ? typed : [...typed, ...this.#any];
  }

  /**
   * Runs every handler for the event (all of them, even when one fails); what they threw, once they settled.
   * Synchronous when every handler is, so a Receiver with synchronous handlers answers in one turn.
   */
  dispatch(event: unknown, context: Context): unknown[] | Promise<unknown[]> {
    const failures: unknown[] = [];
    const pending: PromiseLike<unknown>[] = [];
    for (const handler of this.handlersFor(context.type)) {
      try {
        const returned = handler(event, context);
        if (isPromiseLike(returned)) pending.push(returned.then(undefined, (error) => failures.push(error)));
      } catch (error) {
        failures.push(error);
      }
    }
    return pending.length === 0 ? failures : Promise.all(pending).then(() => failures);
  }

  /** Tells `onError` listeners; failures nobody listens to go to the logger unless `logWhenUnheard` is false. */
  report(error: unknown, info: Info, logWhenUnheard = true): void {
    if (this.#errorListeners.length === 0) {
      if (logWhenUnheard) this.logger.error("[tidings]", info.code, error);
      return;
    }
    for (const listener of this.#errorListeners) {
      try {
        listener(error, info);
      } catch (listenerError) {
        this.logger.error("[tidings] an onError handler threw", listenerError);
      }
    }
  }
}
