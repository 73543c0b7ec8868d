import type { MessageEventType, OutgoingEvent } from "./events";

/**
 * One example event per type: what `tidings send`, the emulator, the dashboard and the tests deliver, with fresh
 * ids and timestamp. Our model of the payload (the service shows no fields): core's `MessageEvents` plus `id`,
 * `created`, and on `message.failed` a `reason`.
 */
export const FIXTURES: { readonly [Type in MessageEventType]: OutgoingEvent<Type> } = {
  "message.queued": {
    id: "evt_fixture_queued",
    type: "message.queued",
    created: 1_700_000_000,
    data: { id: "msg_fixture", status: "queued", channel: "sms" },
  },
  "message.sent": {
    id: "evt_fixture_sent",
    type: "message.sent",
    created: 1_700_000_001,
    data: { id: "msg_fixture", status: "sent", channel: "sms" },
  },
  "message.delivered": {
    id: "evt_fixture_delivered",
    type: "message.delivered",
    created: 1_700_000_002,
    data: { id: "msg_fixture", status: "delivered", channel: "sms" },
  },
  "message.failed": {
    id: "evt_fixture_failed",
    type: "message.failed",
    created: 1_700_000_002,
    data: {
      id: "msg_fixture",
      status: "failed",
      channel: "sms",
      reason: { code: "unreachable", message: "The recipient could not be reached." },
    },
  },
};
