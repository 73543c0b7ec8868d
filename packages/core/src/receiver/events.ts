/** Maps each event type name to the payload type its handlers receive. */
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
 */
export type MessageEvents = {
  "message.queued": MessageEvent<"message.queued", "queued">;
  "message.sent": MessageEvent<"message.sent", "sent">;
  "message.delivered": MessageEvent<"message.delivered", "delivered">;
  "message.failed": MessageEvent<"message.failed", "failed">;
};

/** The event types of `MessageEvents`, as values: `receiver.on(MESSAGE_EVENT_TYPES, handler)` takes them all. */
export const MESSAGE_EVENT_TYPES = [
  "message.queued",
  "message.sent",
  "message.delivered",
  "message.failed",
] as const satisfies readonly (keyof MessageEvents)[];
