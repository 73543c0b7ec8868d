import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { errorFacts, type SafeLogger } from "../ground/logger";
import { isPromiseLike } from "../ground/promise-like";
import type { ReceiveErrorInfo } from "./error-info";
import type { AnyEvent, DeliveryInfo, Handler } from "./handlers";
import type { HandlerRun } from "./outcome";
import { timedHandler } from "./timed-handler";

/**
 * Hears a failure, with what is known about it: a Receiver's `onError` gets `ReceiveErrorInfo`, a queue worker's its
 * own info. May return a promise: a rejection is logged, never left unhandled.
 *
 * @example
 * ```ts
 * import { createReceiver, type ErrorListener } from "@tidings/core";
 *
 * const report: ErrorListener = (error, { code, status }) => console.error(`answered ${status} ${code}`, error);
 * createReceiver({ secret: process.env.TIDINGS_SECRET! }).onError(report);
 * ```
 */
export type ErrorListener<Info = ReceiveErrorInfo> = (error: unknown, info: Info) => unknown;

/**
 * The one handler registry and dispatch rule of Tidings, used by the Receiver and every queue worker: typed handlers
 * by event type plus catch-all ones; every handler runs, even when another fails, and the failures are collected.
 * A handler written for a Receiver therefore runs unchanged in a worker.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { Dispatcher, readQueuedDelivery, type WorkerContext } from "@tidings/core/dispatch";
 *
 * // An engine's job handler, with the Receiver's typing and dispatch rule.
 * const handlers = new Dispatcher<MessageEvents, WorkerContext>();
 * handlers.on("message.delivered", (event, ctx) => console.log(event.data.id, ctx.attempt));
 * handlers.onAny((_event, ctx) => console.log("job", ctx.jobId, ctx.type));
 *
 * export async function runJob(data: unknown, id: string, attempt: number): Promise<void> {
 *   const { event, context } = readQueuedDelivery(data, { id, attempt });
 *   const failures = await handlers.dispatch(event, context); // every handler ran, even after one failed
 *   if (failures.length > 0) throw failures[0];
 * }
 * ```
 */
export class Dispatcher<Events extends EventMap, Context extends Pick<DeliveryInfo, "type">> {
  readonly #byType = new Map<string, Handler<unknown, Context>[]>();
  readonly #any: Handler<unknown, Context>[] = [];
  // Set once a type with no dot is registered (GitHub's `issues`): only then is an event's family looked up too.
  #families = false;

  /** Runs `handler` for events of these types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type], Context>): void {
    for (const type of typeof types === "string" ? [types] : types) {
      const list = this.#byType.get(type) ?? [];
      list.push(handler as Handler<unknown, Context>);
      this.#byType.set(type, list);
      if (!type.includes(".")) this.#families = true;
    }
  }

  /** Runs `handler` for every event, including types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, Context>): void {
    this.#any.push(handler as Handler<unknown, Context>);
  }

  /**
   * The handlers for `issues.opened`: those registered for its family, `issues` (every action of it, as
   * `@octokit/webhooks` users expect), then those for `issues.opened` alone.
   */
  #withFamily(type: string): Handler<unknown, Context>[] | undefined {
    const exact = this.#byType.get(type);
    const dot = type.lastIndexOf(".");
    const family = dot > 0 ? this.#byType.get(type.slice(0, dot)) : undefined;
    return !family ? exact : !exact ? family : [...family, ...exact];
  }

  /**
   * Runs every handler for the event (all of them, even when one fails); what they threw, once they settled.
   * Synchronous when every handler is, so a Receiver with synchronous handlers answers in one turn. With `runs`, each
   * handler's run is recorded there as it settles.
   */
  dispatch(event: unknown, context: Context, runs?: HandlerRun[]): unknown[] | Promise<unknown[]> {
    const failures: unknown[] = [];
    const pending: PromiseLike<unknown>[] = [];
    const typed = this.#families ? this.#withFamily(context.type) : this.#byType.get(context.type);
    // The handlers for the type, then the catch-all ones (a new list only when there are both).
    let handlers = !typed ? this.#any : this.#any.length === 0 ? typed : [...typed, ...this.#any];
    if (runs) {
      const typedCount = typed?.length ?? 0;
      handlers = handlers.map((handler, index) => timedHandler(handler, index < typedCount ? context.type : "*", runs));
    }
    // An indexed loop and no Promise.all for one pending handler: this runs once per delivery, on the hot path.
    for (let index = 0; index < handlers.length; index++) {
      try {
        const returned = (handlers[index] as Handler<unknown, Context>)(event, context);
        if (isPromiseLike(returned)) pending.push(returned.then(undefined, (error) => failures.push(error)));
      } catch (error) {
        failures.push(error);
      }
    }
    if (pending.length === 0) return failures;
    const settled = () => failures;
    return pending.length === 1 ? Promise.resolve(pending[0]).then(settled) : Promise.all(pending).then(settled);
  }
}

/**
 * Calls each listener with the arguments; one that throws or rejects is logged, and never stops the others or escapes
 * unhandled. For `onError` and `onOutcome` listeners alike.
 */
export function notifyListeners<Args extends unknown[]>(
  listeners: readonly ((...args: Args) => unknown)[],
  args: Args,
  logger: SafeLogger,
): void {
  const failed = (listenerError: unknown) =>
    logger.error({ message: "[tidings] a listener failed", code: "listener_failed", err: errorFacts(listenerError) });
  for (const listener of listeners) {
    try {
      const returned = listener(...args);
      if (isPromiseLike(returned)) returned.then(undefined, failed);
    } catch (listenerError) {
      failed(listenerError);
    }
  }
}
