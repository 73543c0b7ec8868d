import { MESSAGE_EVENT_TYPES, type MessageEvents } from "@tidings/core";

type Channel = MessageEvents[keyof MessageEvents]["data"]["channel"];

export { MESSAGE_EVENT_TYPES };

export type MessageEvent = MessageEvents[keyof MessageEvents];
export type MessageStatus = MessageEvent["data"]["status"];

export interface MessageRecord {
  status: MessageStatus;
  channel: Channel;
  /** When `status` last changed (ISO 8601). */
  updatedAt: string;
  /** Every event type heard for this message, in arrival order, including those that changed nothing. */
  events: MessageEvent["type"][];
}

// Deliveries can arrive out of order: a status only moves forward, and delivered/failed are final.
const RANK: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, failed: 2 };

/** The latest status of every message heard about, in memory. */
export class MessageLog {
  readonly #records = new Map<string, MessageRecord>();

  get(id: string): MessageRecord | undefined {
    return this.#records.get(id);
  }

  /** Notes one event (duplicates are already dropped by the Receiver) and returns the message's record. */
  record(event: MessageEvent, at: Date = new Date()): MessageRecord {
    const { id, status, channel } = event.data;
    const current = this.#records.get(id);
    if (current === undefined) {
      const created: MessageRecord = { status, channel, updatedAt: at.toISOString(), events: [event.type] };
      this.#records.set(id, created);
      return created;
    }
    current.events.push(event.type);
    if (RANK[status] > RANK[current.status]) {
      current.status = status;
      current.channel = channel;
      current.updatedAt = at.toISOString();
    }
    return current;
  }
}

/** One readable log line: time, type, message id, channel. */
export function formatEvent(event: MessageEvent, at: Date = new Date()): string {
  return `${at.toISOString()}  ${event.type.padEnd(17)}  ${event.data.id}  ${event.data.channel}`;
}

/** The JSON body of GET /messages/:id for a message no event mentioned (status 404). */
export function messageNotFound(id: string) {
  return { error: { code: "message_not_found", message: `No event has been received for message ${id}.` } };
}
