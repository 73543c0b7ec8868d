import { readWebBody } from "../body/web-request";
import { type TargetSource, targetOf } from "../endpoint/request-target";
import type { EventMap } from "../event-map";
import type { Receiver } from "../receiver/receiver";

/**
 * Handles a Web `Request` end to end: method, bounded raw read, receive, `Response`. Never throws. `target` tells a
 * secret resolver what the framework matched; by default, the URL's path and no params. `url` is the URL the request
 * came to, for a scheme that signs it: by default `request.url`, for a framework that builds that from something else
 * than what the client called (Next.js names its own host).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { handleWebRequest, targetOf } from "@tidings/core/adapter";
 * import { Hono } from "hono";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const consumedFix = "In Hono, read nothing from c.req before the webhook does.";
 *
 * const app = new Hono();
 * app.all("/webhooks/:account", (c) =>
 *   handleWebRequest(receiver, c.req.raw, consumedFix, () => targetOf(c.req.url, c.req.routePath, c.req.param())),
 * );
 * export default app;
 * ```
 */
export async function handleWebRequest<Events extends EventMap>(
  receiver: Receiver<Events>,
  request: Request,
  consumedFix: string,
  target: TargetSource = () => targetOf(request.url),
  url: () => string | undefined = () => request.url,
): Promise<Response> {
  const result = await receiver.handle({
    method: request.method,
    headers: request.headers,
    readBody: (limits) => readWebBody(request, limits, consumedFix),
    target,
    url,
  });
  return new Response(result.body, { status: result.status, headers: result.headers });
}

/**
 * The URL a Web `Request` was called at, for a framework whose `request.url` is not quite it: the `Host` header the
 * client sent (Next.js writes the host it was started on, `localhost`, in `request.url`), with `request.url`'s
 * protocol, then `pathAndQuery` where the framework kept the bytes as sent (the Request's URL re-encodes `'`, `"`,
 * `<`, `>`, a backslash and raw UTF-8), else `request.url`'s path and query. `request.url` itself without a `Host`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { calledUrl, handleWebRequest, targetOf } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // A framework that builds request.url from its own host name: the URL-signing scheme is given the Host called.
 * export const handle = (request: Request) =>
 *   handleWebRequest(receiver, request, "Read nothing before the webhook.", () => targetOf(request.url), () =>
 *     calledUrl(request),
 *   );
 * ```
 */
export function calledUrl(request: Request, pathAndQuery?: string): string {
  const { url } = request;
  const host = request.headers.get("host");
  const scheme = url.indexOf("://");
  const path = scheme === -1 ? -1 : url.indexOf("/", scheme + 3);
  if (!host || path === -1) return url;
  const rest = pathAndQuery?.startsWith("/") ? pathAndQuery : url.slice(path);
  return `${url.slice(0, scheme)}://${host}${rest}`;
}
