import type { EventMap, Receiver } from "@tidings/core";
import { calledUrl, handleWebRequest, type TargetSource, targetOf } from "@tidings/core/adapter";
import { handleNodeRequest } from "@tidings/core/node";
import type { H3EventLike, H3EventV1Like, H3EventV2Like, WebhookEventHandler } from "./events";

const CONSUMED_FIX =
  "In h3 and Nitro, let the webhook handler be the first to read the request: no middleware may call readBody(), readValidatedBody() or event.req.json()/text() before it (h3 v1 keeps the raw bytes of its own readBody(), so only a Node body parser such as express.json() in front of it loses them).";

// h3 v1's readRawBody() keeps the bytes it read (not decoded, not parsed) on the request under this symbol.
const H3_V1_RAW_BODY = Symbol.for("h3RawBody");

type CachedRawBody = Promise<Uint8Array | undefined> | undefined;

/** The URL's path and the router's params, the same for both generations. */
const targetFrom =
  (event: H3EventLike, url: string): TargetSource =>
  () =>
    targetOf(url, undefined, event.context?.params);

async function handleV1<Events extends EventMap>(receiver: Receiver<Events>, event: H3EventV1Like) {
  const webRequest = event.web?.request;
  if (webRequest) return handleWebRequest(receiver, webRequest, CONSUMED_FIX, targetFrom(event, webRequest.url));
  const { req } = event.node;
  const cached = (req as { [H3_V1_RAW_BODY]?: CachedRawBody })[H3_V1_RAW_BODY];
  const bodyAsSent = cached ? ((await cached) ?? new Uint8Array(0)) : undefined;
  const { url, originalUrl } = req as { url?: string; originalUrl?: string };
  const target = targetFrom(event, url ?? "");
  // `app.use(prefix, …)` strips its prefix from `req.url` and keeps what was called in `originalUrl`.
  const options = { consumedFix: CONSUMED_FIX, bodyAsSent, target, url: originalUrl ?? url };
  const result = await handleNodeRequest(receiver, req, options);
  return new Response(result.body, { status: result.status, headers: result.headers });
}

/**
 * On Node (srvx), the URL with the path and query as the client sent them, from Node's request: the Web `Request`'s
 * URL re-encodes some of their bytes. Elsewhere, the Request's URL.
 */
function v2Url(request: Request): string {
  const node = (request as { runtime?: { node?: { req?: { url?: unknown } } } }).runtime?.node?.req?.url;
  return typeof node === "string" ? calledUrl(request, node) : request.url;
}

/** h3 v2 hands a Web `Request`; h3 v1's event has a deprecated `req` too, but it is Node's request. */
function isV2(event: H3EventLike): event is H3EventV2Like {
  return typeof (event as Partial<H3EventV2Like>).req?.arrayBuffer === "function";
}

/**
 * A Nuxt/Nitro server route or h3 handler for webhook deliveries, on h3 v2 (Nitro 3) and h3 v1 (Nitro 2, Nuxt 4):
 * `export default defineWebhookHandler(receiver)` in `server/api/webhooks.ts` (every method: others than POST are
 * answered 405). Reads the exact bytes, never parsed JSON. Answers with a `Response`. Never throws.
 *
 * @example
 * ```ts
 * // server/api/webhooks.ts
 * import { createReceiver } from "@tidings/core";
 * import { defineWebhookHandler } from "@tidings/h3";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * export default defineWebhookHandler(receiver);
 * ```
 *
 * In a plain h3 v2 app:
 *
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { defineWebhookHandler } from "@tidings/h3";
 * import { H3, serve } from "h3";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * serve(new H3().post("/webhooks", defineWebhookHandler(receiver)), { port: 3000 });
 * ```
 */
export function defineWebhookHandler<Events extends EventMap>(receiver: Receiver<Events>): WebhookEventHandler {
  const handler = (event: H3EventLike) =>
    isV2(event)
      ? handleWebRequest(receiver, event.req, CONSUMED_FIX, targetFrom(event, event.req.url), () => v2Url(event.req))
      : handleV1(receiver, event);
  return Object.assign(handler, { __is_handler__: true as const });
}
