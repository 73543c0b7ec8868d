import type { HeaderSource } from "../http/headers";

/**
 * Where a request was sent, as the framework knows it.
 *
 * @example
 * ```ts
 * import type { RequestTarget } from "@tidings/core/adapter";
 * import type { Context } from "hono";
 *
 * // What Hono matched, for a secret resolver and outcome listeners.
 * export const honoTarget = (c: Context): RequestTarget => ({
 *   path: c.req.path,
 *   route: c.req.routePath,
 *   params: c.req.param(),
 * });
 * ```
 */
export interface RequestTarget {
  /** The URL path, without the query: `/webhooks/acct_42`. */
  path: string;
  /** The route pattern the framework matched, where it has one: `/webhooks/:account`. */
  route?: string | undefined;
  /** The route's parameters the framework parsed: `{ account: "acct_42" }`. Empty where it parses none. */
  params: Readonly<Record<string, string | undefined>>;
}

/**
 * What a secret resolver is asked about: where the delivery was sent, and its headers.
 *
 * @example
 * ```ts
 * import { createReceiver, type ResolvedEndpoint, type SecretRequest } from "@tidings/core";
 *
 * const secrets = new Map([["acct_42", "whsec_abc"]]); // stands in for your database
 *
 * // By the route's :account where the framework matched one, else by the path's last segment.
 * function lookup({ path, params }: SecretRequest): ResolvedEndpoint | undefined {
 *   const account = params.account ?? path.split("/").at(-1) ?? "";
 *   const secret = secrets.get(account);
 *   return secret === undefined ? undefined : { secret, endpoint: account };
 * }
 *
 * export const receiver = createReceiver({ secret: lookup });
 * ```
 */
export interface SecretRequest extends RequestTarget {
  headers: HeaderSource;
}

/**
 * An adapter's description of the request's target, computed only when a resolver or an outcome listener asks.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { readRequestBody, type TargetSource, targetOf } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const consumedFix = "Read nothing from the request before the webhook does.";
 *
 * // A router that hands over the route it matched: described only if a resolver or an outcome listener asks.
 * export function handle(request: Request, route: string, params: Record<string, string>) {
 *   const target: TargetSource = () => targetOf(request.url, route, params);
 *   return receiver.handle({
 *     method: request.method,
 *     headers: request.headers,
 *     readBody: (limits) => readRequestBody(request, { ...limits, consumedFix }),
 *     target,
 *   });
 * }
 * ```
 */
export type TargetSource = () => RequestTarget | PromiseLike<RequestTarget>;

const NO_PARAMS: Readonly<Record<string, string | undefined>> = /* @__PURE__ */ Object.freeze({});

/**
 * The path of a URL, absolute (`https://host/a?b`) or origin-relative (`/a?b`), without query or fragment. Cheaper
 * than `new URL()`, which the fetch path would otherwise pay per request.
 */
function pathOfUrl(url: string): string {
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* "/" */) {
    const scheme = url.indexOf("//");
    start = scheme === -1 ? 0 : url.indexOf("/", scheme + 2);
    if (start === -1) return "/";
  }
  let end = url.length;
  const query = url.indexOf("?", start);
  if (query !== -1) end = query;
  const fragment = url.indexOf("#", start);
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(start, end) || "/";
}

/** Route params as strings: a catch-all segment's list (Express 5 `*splat`, Next.js `[...slug]`) joined with "/". */
function stringParams(params: object | null | undefined): Readonly<Record<string, string | undefined>> {
  if (params === null || params === undefined) return NO_PARAMS;
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string") strings[name] = value;
    else if (Array.isArray(value)) strings[name] = value.join("/");
  }
  return strings;
}

/**
 * A target from a URL and what the framework matched, however it types its params.
 *
 * @example
 * ```ts
 * import { targetOf } from "@tidings/core/adapter";
 *
 * targetOf("https://example.com/webhooks/acct_42?x=1", "/webhooks/:account", { account: "acct_42" });
 * // { path: "/webhooks/acct_42", route: "/webhooks/:account", params: { account: "acct_42" } }
 * targetOf("/hooks/a/b", "/hooks/[...slug]", { slug: ["a", "b"] }).params; // { slug: "a/b" }
 * ```
 */
export function targetOf(url: string, route?: string | undefined, params?: object | null | undefined): RequestTarget {
  return { path: pathOfUrl(url), route, params: stringParams(params) };
}

/** Where nothing says where a delivery was sent (`receive()` with bytes alone). */
export const UNKNOWN_TARGET: RequestTarget = /* @__PURE__ */ Object.freeze({ path: "", params: NO_PARAMS });
