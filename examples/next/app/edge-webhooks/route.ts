import { createReceiver, type Receiver } from "@tidings/core";
import { createRouteHandler } from "@tidings/next";
import { formatEvent, MESSAGE_EVENT_TYPES } from "../../../shared/message-log";
import { webhookSecret } from "../../lib/secret";

export const runtime = "edge";

// The Edge runtime is a separate sandbox that cannot reach the Node routes' message store: it logs and acknowledges.
let receiver: Receiver | undefined;

export function POST(request: Request): Promise<Response> {
  receiver ??= createReceiver({ secret: webhookSecret() }).on(MESSAGE_EVENT_TYPES, (event) => {
    console.log(`${formatEvent(event)}  (edge: not stored)`);
  });
  return createRouteHandler(receiver)(request);
}
