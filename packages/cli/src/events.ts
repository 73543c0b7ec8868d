import { MESSAGE_EVENT_TYPES, type MessageEvent, type MessageEvents } from "@tidings/core";

/** What a message is sent over: `sms`, `email` or `push`. */
export type Channel = MessageEvents[keyof MessageEvents]["data"]["channel"];

import { FIXTURES } from "./fixtures";
import { randomId } from "./ids";

export { MESSAGE_EVENT_TYPES };

export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

/** `message.delivered` → `delivered`. */
export type StatusOf<Type extends MessageEventType> = Type extends `message.${infer Status}` ? Status : never;

/** An event as `send` and the emulator deliver it: core's `MessageEvents` shape plus `id` and `created`. */
export type OutgoingEvent<Type extends MessageEventType = MessageEventType> = MessageEvent<Type, StatusOf<Type>> & {
  id: string;
  created: number;
};

// Compile-time check that the shape above is core's model, type by type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameAsCore: { [Type in MessageEventType]: Same<MessageEvent<Type, StatusOf<Type>>, MessageEvents[Type]> } = {
  "message.queued": true,
  "message.sent": true,
  "message.delivered": true,
  "message.failed": true,
};
void _sameAsCore;

export interface EventData {
  id?: string;
  channel?: Channel;
  readonly [field: string]: unknown;
}

/**
 * The type's fixture (`FIXTURES`) as a new event: a fresh `evt_…` id, `created` now, a fresh `msg_…` id. `data` is
 * merged over the fixture's and may override any field.
 */
export function buildEvent<Type extends MessageEventType>(type: Type, data: EventData = {}): OutgoingEvent<Type> {
  const fixture: OutgoingEvent = FIXTURES[type];
  return {
    ...structuredClone(fixture),
    id: randomId("evt_"),
    created: Math.floor(Date.now() / 1000),
    // --data may override the defaults with anything: the point of `send` is testing receivers.
    data: { ...structuredClone(fixture.data), id: randomId("msg_"), ...data },
  } as OutgoingEvent<Type>;
}
