import type { EventMap } from "../event-map";
import type { HeaderSource } from "../http/headers";

/** What every handler learns about a delivery besides the event, whether it runs in the request or in a worker. */
export interface DeliveryInfo {
  /** The event type, as read by `typeOf`. */
  type: string;
  /**
   * The dedup key: `event:<id>` when the event has an id, else `signature:<matched v1>`; prefixed with
   * `endpoint:<label, URI-encoded>:` when the secret resolver named an endpoint.
   */
  deliveryKey: string;
  /** The signed timestamp, Unix seconds. */
  timestamp: number;
  /** Which configured secret verified the delivery (its place in the list, expired ones included). */
  secretIndex: number;
  /** The endpoint label the secret resolver gave, if any. */
  endpoint?: string | undefined;
  /**
   * An idempotency key for an effect outside the database (a payment, a message sent through an API that honours
   * `Idempotency-Key`): the same on every run of this delivery (a retry, a rerun after a crash, in the request or a
   * worker), different for another event, and for another `label` (one per call the handler makes). A UUID, 36
   * characters of `0-9a-f-`. Needs node:crypto. Call it on the context: `ctx.idempotencyKey("refund")`.
   */
  idempotencyKey(label?: string): string;
}

/**
 * What a handler of a Receiver or worker given `transactions` learns besides: the delivery's transaction, as the
 * database library's own handle. Writes made through it commit together with the delivery's done mark, or not at all.
 *
 * @example
 * ```ts
 * import type { DeliveryContext, MessageEvents } from "@tidings/core";
 * import type { InTransaction } from "@tidings/postgres";
 * import type { PoolClient } from "pg";
 *
 * export async function recordFailure(event: MessageEvents["message.failed"], ctx: DeliveryContext & InTransaction<PoolClient>) {
 *   await ctx.transaction.query("insert into failures (message_id) values ($1)", [event.data.id]);
 * }
 * ```
 */
export interface InTransaction<Tx> {
  readonly transaction: Tx;
}

/**
 * What a Receiver's handler learns about the delivery besides the event.
 *
 * @example
 * ```ts
 * import { createReceiver, type DeliveryContext, type MessageEvents } from "@tidings/core";
 *
 * function onDelivered(event: MessageEvents["message.delivered"], ctx: DeliveryContext) {
 *   const signedAt = new Date(ctx.timestamp * 1000);
 *   console.log(event.data.id, ctx.deliveryKey, signedAt, `${ctx.verifiedBody.byteLength} bytes`);
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).on("message.delivered", onDelivered);
 * ```
 */
export interface DeliveryContext extends DeliveryInfo {
  /** The body bytes the signature was verified over (Content-Encoding undone). */
  verifiedBody: Uint8Array;
  headers: HeaderSource;
}

/**
 * A handler may return anything; a promise it returns is awaited, and a rejection counts as a failure.
 *
 * @example
 * ```ts
 * import { createReceiver, type Handler, type MessageEvents } from "@tidings/core";
 *
 * // Written in a module of its own, registered where the Receiver is made.
 * export const markDelivered: Handler<MessageEvents["message.delivered"]> = async (event, ctx) => {
 *   console.log(`${event.data.id} delivered (${ctx.deliveryKey})`);
 * };
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).on("message.delivered", markDelivered);
 * ```
 */
export type Handler<Event, Context = DeliveryContext> = (event: Event, context: Context) => unknown;

/** Every event of a map, as a union: what `onAny` handlers receive. */
export type AnyEvent<Events extends EventMap> = Events[keyof Events];
