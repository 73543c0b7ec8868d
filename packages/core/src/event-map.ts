/**
 * Maps each event type name to the payload type its handlers receive.
 *
 * @example
 * ```ts
 * import { createReceiver, type EventMap, type Receiver } from "@tidings/core";
 *
 * // A helper for receivers of any event map, the default one and your own.
 * export function withAudit<Events extends EventMap>(receiver: Receiver<Events>): Receiver<Events> {
 *   return receiver.onAny((_event, ctx) => console.log("audit", ctx.type, ctx.deliveryKey));
 * }
 *
 * type InvoiceEvents = { "invoice.paid": { id: string; type: "invoice.paid"; amount: number } };
 * export const receiver = withAudit(createReceiver<InvoiceEvents>({ secret: process.env.WEBHOOK_SECRET! }));
 * ```
 */
export type EventMap = Record<string, object>;

export type Channel = "sms" | "email" | "push";

/** The message an event reports on. Fields beyond these are the service's and pass through untyped. */
export interface MessageEventData<Status extends string> {
  /** The message's identifier, `msg_...`. */
  id: string;
  status: Status;
  channel: Channel;
  readonly [field: string]: unknown;
}

/**
 * One event of the default event model: its type, and the message it reports on with the status it reached.
 *
 * @example
 * ```ts
 * import { createReceiver, type MessageEvent } from "@tidings/core";
 *
 * function recordFailure(event: MessageEvent<"message.failed", "failed">) {
 *   console.error(`message ${event.data.id} failed on ${event.data.channel}`);
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).on("message.failed", recordFailure);
 * ```
 */
export interface MessageEvent<Type extends string, Status extends string> {
  /** The event's identifier; deliveries of the same event share it, so it is the dedup key. */
  id?: string;
  type: Type;
  data: MessageEventData<Status>;
  readonly [field: string]: unknown;
}

/**
 * Our model of the service's delivery events. The sender names neither event types nor payload
 * fields (docs/sender-contract.md, Events), so these are assumptions; declare your own map if your payloads differ.
 *
 * @example
 * ```ts
 * import { createReceiver, type MessageEvents } from "@tidings/core";
 *
 * // The default map, and a type of your own beside it.
 * type Events = MessageEvents & {
 *   "message.read": { id?: string; type: "message.read"; data: { id: string; readAt: string } };
 * };
 *
 * export const receiver = createReceiver<Events>({ secret: process.env.WEBHOOK_SECRET! })
 *   .on("message.delivered", (event) => console.log(event.data.id, event.data.status))
 *   .on("message.read", (event) => console.log(event.data.id, event.data.readAt));
 * ```
 */
export type MessageEvents = {
  "message.queued": MessageEvent<"message.queued", "queued">;
  "message.sent": MessageEvent<"message.sent", "sent">;
  "message.delivered": MessageEvent<"message.delivered", "delivered">;
  "message.failed": MessageEvent<"message.failed", "failed">;
};

/**
 * The event types of `MessageEvents`, as values: `receiver.on(MESSAGE_EVENT_TYPES, handler)` takes them all.
 *
 * @example
 * ```ts
 * import { createReceiver, MESSAGE_EVENT_TYPES } from "@tidings/core";
 *
 * const statuses = new Map<string, string>(); // stands in for your database
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).on(MESSAGE_EVENT_TYPES, (event) =>
 *   statuses.set(event.data.id, event.data.status),
 * );
 * ```
 */
export const MESSAGE_EVENT_TYPES = [
  "message.queued",
  "message.sent",
  "message.delivered",
  "message.failed",
] as const satisfies readonly (keyof MessageEvents)[];
