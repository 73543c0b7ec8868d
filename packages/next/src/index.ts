import type { IncomingMessage, ServerResponse } from "node:http";
import type { EventMap, Receiver } from "@tidings/core";
import { handleWebRequest } from "@tidings/core/adapter";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";

const ROUTE_FIX =
  "In a Next.js route handler, export createRouteHandler(receiver) as POST directly: nothing may call request.json(), text(), formData() or arrayBuffer() before it. If proxy.ts (middleware.ts) matches this path, Next.js buffers only the first 10 MB of the body for it (experimental.proxyClientMaxBodySize): exclude the webhook path from its matcher.";

const PAGES_FIX =
  "In the Pages Router that is Next.js's own body parser, on by default for API routes: add `export const config = { api: { bodyParser: false } };` to this API route file. It must be a literal in the route file itself; Next.js reads it at build time, so no library can set it for you.";

const PAGES_READ_OPTIONS = { consumedFix: PAGES_FIX };

/** App Router route handler (Node and Edge runtimes): `export const POST = createRouteHandler(receiver)`. */
export function createRouteHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (request: Request) => Promise<Response> {
  return (request) => handleWebRequest(receiver, request, ROUTE_FIX);
}

/**
 * Pages Router API route: `export default createPagesHandler(receiver)`, with
 * `export const config = { api: { bodyParser: false } }` in the same file.
 * Typed with node:http (NextApiRequest/NextApiResponse extend them) so it needs nothing from `next`.
 */
export function createPagesHandler<Events extends EventMap>(
  receiver: Receiver<Events>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    writeNodeResponse(res, await handleNodeRequest(receiver, req, PAGES_READ_OPTIONS));
  };
}
