import type { EventMap, Receiver } from "@tidings/core";
import { handleWebRequest } from "@tidings/core/adapter";

const CONSUMED_FIX =
  "Let the webhook handler be the first to read the request: in Hono, mount it before validator('json') or any middleware that calls c.req.json()/text()/parseBody(), and pass c.req.raw.";

/** A Web-standard webhook endpoint: `(request: Request) => Promise<Response>`, for Hono, Bun, Deno and Workers. */
export function createFetchHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (request: Request) => Promise<Response> {
  return (request) => handleWebRequest(receiver, request, CONSUMED_FIX);
}
