import { json, type SenderSample } from "./sample";

/** A `conversation.user.created` notification as Intercom sends it (trimmed); its `id` is `id`, the dedup key. */
export const intercom: SenderSample = (id, now) =>
  json({
    type: "notification_event",
    app_id: "ecahpwf5",
    id,
    topic: "conversation.user.created",
    delivery_status: "pending",
    delivery_attempts: 1,
    created_at: now,
    first_sent_at: now,
    data: {
      type: "notification_event_data",
      item: {
        type: "conversation",
        id: "147",
        state: "open",
        source: {
          type: "conversation",
          body: "<p>Hello, is anyone there?</p>",
          author: { type: "user", id: "5310d8e7598c9a0b24000002" },
        },
      },
    },
  });
