import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";
import type { ActionFunctionArgs } from "react-router";

const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET as string });
receiver.on("message.delivered", (event) => console.log(`delivered ${event.data.id}`));
const handle = createFetchHandler(receiver);

// A resource route (no default export): its action answers with the handler's Response as it is.
export function action({ request }: ActionFunctionArgs) {
  return handle(request);
}
