import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";

const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET as string });
receiver.on("message.delivered", (event) => console.log(`delivered ${event.data.id}`));
const handle = createFetchHandler(receiver);

// A resource route (no default export): POST reaches the action, GET and HEAD the loader, and either answers with the
// handler's Response as it is (405 for other methods than POST; without a loader React Router answers a GET 400).
export function action({ request }: ActionFunctionArgs) {
  return handle(request);
}

export function loader({ request }: LoaderFunctionArgs) {
  return handle(request);
}
