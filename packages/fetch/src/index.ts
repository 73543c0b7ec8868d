import type { EventMap, Receiver } from "@tidings/core";
import { handleWebRequest, targetOf } from "@tidings/core/adapter";

const CONSUMED_FIX =
  "Let the webhook handler be the first to read the request: in Hono, mount it before validator('json') or any middleware that calls c.req.json()/text()/parseBody(), and pass c.req.raw.";

/** What the framework's router matched, for a secret resolver: Hono's `{ params: c.req.param(), route: c.req.routePath }`. */
export interface RouteMatch {
  params?: object | undefined;
  route?: string | undefined;
}

/**
 * A Web-standard webhook endpoint: `(request: Request) => Promise<Response>`, for Hono, Bun, Deno and Workers. Pass
 * what the router matched as the second argument where a secret resolver needs route params; Bun's routes put them
 * on the request itself, and are read from there.
 */
export function createFetchHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (request: Request, match?: RouteMatch) => Promise<Response> {
  return (request, match) =>
    handleWebRequest(receiver, request, CONSUMED_FIX, () =>
      targetOf(request.url, match?.route, match?.params ?? (request as { params?: object }).params),
    );
}
