import type { RequestHandler } from "@sveltejs/kit";
import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";

let handle: ((request: Request) => Promise<Response>) | undefined;

// Built on the first request: SvelteKit imports every endpoint while building, when the secret may not be set.
function webhookHandler() {
  if (handle === undefined) {
    const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET as string });
    receiver.on("message.delivered", (event) => console.log(`delivered ${event.data.id}`));
    handle = createFetchHandler(receiver);
  }
  return handle;
}

// The untouched Request: nothing in this endpoint may call request.json() or text() first.
export const POST: RequestHandler = ({ request }) => webhookHandler()(request);
