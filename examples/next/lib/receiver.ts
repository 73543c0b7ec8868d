import { createReceiver, type Receiver } from "@tidings/core";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog } from "../../shared/message-log";
import { webhookSecret } from "./secret";

interface NodeState {
  messages: MessageLog;
  receiver?: Receiver;
}

// Next.js bundles each route on its own and may evaluate this module once per bundle. Keeping the state on
// globalThis gives the Node-runtime routes of a server process one message store and one dedup store.
const scope = globalThis as typeof globalThis & { tidingsExampleNext?: NodeState };
scope.tidingsExampleNext ??= { messages: new MessageLog() };
const state = scope.tidingsExampleNext;

/** The message statuses heard by the Node-runtime webhook routes. */
export const messages = state.messages;

/** The receiver of app/webhooks and pages/api/webhooks, created on the first delivery. */
export function nodeReceiver(): Receiver {
  state.receiver ??= createReceiver({ secret: webhookSecret() }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    console.log(formatEvent(event));
  });
  return state.receiver;
}
