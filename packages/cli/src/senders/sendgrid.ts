import { alphanumeric, json, type SenderSample } from "./sample";

/**
 * A batch of one `delivered` event, as SendGrid's Event Webhook posts it (a JSON array, which the scheme types
 * `batch`); its `sg_event_id`, from which the batch's dedup key is made, is made of `id`.
 */
export const sendgrid: SenderSample = (id, now) =>
  json([
    {
      email: "ada@example.com",
      timestamp: now,
      "smtp-id": "<14c5d75ce93.dfd.64b469@ismtpd-555>",
      event: "delivered",
      category: ["welcome"],
      sg_event_id: alphanumeric(id),
      sg_message_id: "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
      response: "250 OK",
    },
  ]);
