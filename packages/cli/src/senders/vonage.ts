import { iso, json, type SenderSample, uuidOf } from "./sample";

/** An inbound SMS as Vonage's Messages API sends it, typed `inbound.sms`; its `message_uuid` is made of `id`. */
export const vonage: SenderSample = (id, now) =>
  json({
    channel: "sms",
    message_uuid: uuidOf(id),
    to: "447700900000",
    from: "447700900001",
    timestamp: iso(now),
    text: "Hello from Vonage!",
    sms: { num_messages: "1", keyword: "HELLO" },
    usage: { price: "0.0333", currency: "EUR" },
    message_type: "text",
  });
