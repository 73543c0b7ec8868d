import { iso, json, type SenderSample, uuidOf } from "./sample";

/** A `message.received` event (an inbound SMS) as Telnyx sends it (trimmed); its `data.id` is made of `id`. */
export const telnyx: SenderSample = (id, now) =>
  json({
    data: {
      event_type: "message.received",
      id: uuidOf(id),
      occurred_at: iso(now),
      payload: {
        direction: "inbound",
        from: { carrier: "T-Mobile USA", line_type: "long_code", phone_number: "+13125550001" },
        id: "b0c7e8cb-6227-4c74-9f32-c7f80c30934b",
        messaging_profile_id: "740572b6-099c-44a1-89b9-6c92163bc68d",
        text: "Hello from Telnyx!",
        to: [{ phone_number: "+17735550002", status: "webhook_delivered" }],
        type: "SMS",
        record_type: "message",
        received_at: iso(now),
      },
      record_type: "event",
    },
    meta: { attempt: 1, delivered_to: "https://example.com/webhooks" },
  });
