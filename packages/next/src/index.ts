import type { IncomingMessage, ServerResponse } from "node:http";
import type { EventMap, Receiver } from "@tidings/core";
import { calledUrl, handleWebRequest, targetOf } from "@tidings/core/adapter";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";

const ROUTE_FIX =
  "In a Next.js route handler, export createRouteHandler(receiver) as POST directly: nothing may call request.json(), text(), formData() or arrayBuffer() before it. If proxy.ts (middleware.ts) matches this path, Next.js buffers only the first 10 MB of the body for it (experimental.proxyClientMaxBodySize): exclude the webhook path from its matcher.";

const PAGES_FIX =
  "In the Pages Router that is Next.js's own body parser, on by default for API routes: add `export const config = { api: { bodyParser: false } };` to this API route file. It must be a literal in the route file itself; Next.js reads it at build time, so no library can set it for you.";

/**
 * The second argument Next.js passes a route handler: the dynamic segments (a promise since Next.js 15).
 *
 * @example
 * ```ts
 * // app/webhooks/[account]/route.ts
 * import { createReceiver } from "@tidings/core";
 * import { createRouteHandler, type RouteContext } from "@tidings/next";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const handle = createRouteHandler(receiver);
 *
 * export function POST(request: Request, context: RouteContext) {
 *   console.log("delivery for", request.url);
 *   return handle(request, context); // a secret resolver sees { account } as params
 * }
 * ```
 */
export interface RouteContext {
  params?: object | PromiseLike<object> | undefined;
}

/**
 * App Router route handler (Node and Edge runtimes): `export const POST = createRouteHandler(receiver)`. In a dynamic
 * route (`app/webhooks/[account]/route.ts`), a secret resolver sees the segments as `params`.
 *
 * @example
 * ```ts
 * // app/webhooks/route.ts
 * import { createReceiver } from "@tidings/core";
 * import { createRouteHandler } from "@tidings/next";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * export const POST = createRouteHandler(receiver);
 * ```
 */
export function createRouteHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (request: Request, context?: RouteContext) => Promise<Response> {
  return (request, context) =>
    handleWebRequest(
      receiver,
      request,
      ROUTE_FIX,
      async () => targetOf(request.url, undefined, await context?.params),
      // Next.js writes the host it was started on (`localhost`) in request.url, not the one called.
      () => calledUrl(request),
    );
}

/**
 * Pages Router API route: `export default createPagesHandler(receiver)`, with
 * `export const config = { api: { bodyParser: false } }` in the same file.
 * Typed with node:http (NextApiRequest/NextApiResponse extend them) so it needs nothing from `next`.
 *
 * @example
 * ```ts
 * // pages/api/webhooks.ts
 * import { createReceiver } from "@tidings/core";
 * import { createPagesHandler } from "@tidings/next";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * export default createPagesHandler(receiver);
 * export const config = { api: { bodyParser: false } }; // a literal, in this file: Next.js reads it at build time
 * ```
 */
export function createPagesHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    // Next.js merges a dynamic route's segments (`pages/api/webhooks/[account].ts`) into `req.query`.
    const target = () => targetOf(req.url ?? "", undefined, (req as { query?: object }).query);
    writeNodeResponse(res, await handleNodeRequest(receiver, req, { consumedFix: PAGES_FIX, target }));
  };
}
