import { createReceiver } from "@tidings/core";
import { defineWebhookHandler } from "@tidings/h3";
import { formatEvent, MESSAGE_EVENT_TYPES } from "../../../shared/message-log";
import { messages } from "../utils/messages";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("WEBHOOK_SECRET is not set: start the server with the webhook endpoint's secret.");

const receiver = createReceiver({ secret }).on(MESSAGE_EVENT_TYPES, (event) => {
  messages.record(event);
  console.log(formatEvent(event));
});

// The exact bytes, never readBody()'s parsed JSON: nothing else may read this route's body first.
export default defineWebhookHandler(receiver);
