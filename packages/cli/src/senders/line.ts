import { alphanumeric, json, type SenderSample } from "./sample";

/** A text `message` event as LINE's Messaging API sends it, its `webhookEventId` made of `id`, the dedup key. */
export const line: SenderSample = (id, now) =>
  json({
    destination: "U8e742f61d673b39c7fff3cecb7536ef0",
    events: [
      {
        type: "message",
        message: { type: "text", id: "468789577898262530", quoteToken: "q3Plxr4AgKd", text: "Hello, world" },
        webhookEventId: alphanumeric(id).toUpperCase(),
        deliveryContext: { isRedelivery: false },
        timestamp: now * 1000,
        source: { type: "user", userId: "U4af4980629" },
        replyToken: "b60d432864f44d079f6d8efe86cf404b",
        mode: "active",
      },
    ],
  });
