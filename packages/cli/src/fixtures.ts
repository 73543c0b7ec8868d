import type { MessageEventType, OutgoingEvent } from "./events";

/**
 * One example event per type: what `tidings send`, the emulator, the dashboard and the tests deliver, with fresh
 * ids and timestamp. Our model of the payload (the service shows no fields): core's `MessageEvents` plus `id`,
 * `created`, and on `message.failed` a `reason`.
 *
 * @example
 * ```ts
 * import { FIXTURES } from "@tidings/cli";
 * import { createReceiver, sign } from "@tidings/core";
 *
 * // A unit test of your handler: the example event, signed, straight to the receiver.
 * const receiver = createReceiver({ secret: "whsec_test" });
 * receiver.on("message.failed", (event) => console.log(`${event.data.id} failed`, event.reason));
 * const rawBody = new TextEncoder().encode(JSON.stringify(FIXTURES["message.failed"]));
 * const result = await receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, "whsec_test") } });
 * console.log(result.status); // 200
 * ```
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
