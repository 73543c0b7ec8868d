import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";
import type { APIRoute } from "astro";

// Rendered on demand: a prerendered endpoint would run once at build time, with no request to verify.
export const prerender = false;

const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET as string });
receiver.on("message.delivered", (event) => console.log(`delivered ${event.data.id}`));
const handle = createFetchHandler(receiver);

// The untouched Request: nothing in this endpoint may call request.json() or text() first. ALL, not POST: the handler
// answers the other methods 405 (Astro's own answer to a method the endpoint does not export is 404).
export const ALL: APIRoute = ({ request }) => handle(request);
