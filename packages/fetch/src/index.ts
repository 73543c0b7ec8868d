import type { EventMap, Receiver } from "@tidings/core";
import { calledUrl, handleWebRequest, targetOf } from "@tidings/core/adapter";

const CONSUMED_FIX =
  "Let the webhook handler be the first to read the request: in Hono, mount it before validator('json') or any middleware that calls c.req.json()/text()/parseBody(), and pass c.req.raw.";

/**
 * What the framework's router matched, for a secret resolver: Hono's `{ params: c.req.param(), route: c.req.routePath }`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { createFetchHandler, type RouteMatch } from "@tidings/fetch";
 * import { Hono } from "hono";
 *
 * const secrets = new Map([["acct_1", process.env.ACCT_1_SECRET!], ["acct_2", process.env.ACCT_2_SECRET!]]);
 * const receiver = createReceiver({
 *   // Each account's endpoint has its own secret; an unknown account is answered 404.
 *   secret: ({ params: { account = "" } }) => {
 *     const secret = secrets.get(account);
 *     return secret === undefined ? undefined : { secret, endpoint: account };
 *   },
 * });
 * const handle = createFetchHandler(receiver);
 *
 * export default new Hono().post("/webhooks/:account", (c) => {
 *   const match: RouteMatch = { params: c.req.param(), route: c.req.routePath };
 *   return handle(c.req.raw, match);
 * });
 * ```
 */
export interface RouteMatch {
  params?: object | undefined;
  route?: string | undefined;
  /**
   * The path and query as the client sent them, where the server keeps them (`c.env.incoming?.url` on
   * `@hono/node-server`), for a scheme that signs the URL: the Request's URL re-encodes some bytes (`'`, `"`, `<`,
   * `>`). The URL is then the `Host` header's, with these.
   */
  pathAndQuery?: string | undefined;
}

/**
 * A Web-standard webhook endpoint: `(request: Request) => Promise<Response>`, for Hono, Bun, Deno and Workers. Pass
 * what the router matched as the second argument where a secret resolver needs route params; Bun's routes put them
 * on the request itself, and are read from there.
 *
 * @example
 * ```ts
 * import { serve } from "@hono/node-server";
 * import { createReceiver } from "@tidings/core";
 * import { createFetchHandler } from "@tidings/fetch";
 * import { Hono } from "hono";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * const handle = createFetchHandler(receiver); // also `Deno.serve(handle)`, `export default { fetch: handle }`
 * const app = new Hono().post("/webhooks", (c) => handle(c.req.raw));
 * serve({ fetch: app.fetch, port: 3000 });
 * ```
 */
export function createFetchHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (request: Request, match?: RouteMatch) => Promise<Response> {
  return (request, match) =>
    handleWebRequest(
      receiver,
      request,
      CONSUMED_FIX,
      () => targetOf(request.url, match?.route, match?.params ?? (request as { params?: object }).params),
      () => (match?.pathAndQuery === undefined ? request.url : calledUrl(request, match.pathAndQuery)),
    );
}
