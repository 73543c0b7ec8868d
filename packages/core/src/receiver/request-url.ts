import { type HeaderSource, headerValue } from "../http/headers";
import type { SignedRequest } from "../verification/signed-request";
import type { IncomingRequest } from "./incoming";

/** How the Receiver rebuilds the URL the sender called, for a scheme that signs it. */
export interface RequestUrlOptions {
  /**
   * The URL the sender calls, up to where the request's own path begins: `https://hooks.example.com`, or
   * `https://example.com/api` behind a proxy that strips `/api`. The signed URL is this followed by the path and query
   * the app received. Set it whenever a proxy, a load balancer or a tunnel is in front: what the app sees there is
   * not what the sender signed.
   */
  publicUrl?: string | undefined;
  /**
   * Rebuild the URL from the proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` (their first values) instead. Only
   * behind a proxy that sets both and drops what the client sent: otherwise a client chooses the URL that is checked.
   * `publicUrl`, when set, wins.
   */
  trustProxy?: boolean | undefined;
}

/** The part of a URL from its path on: `/hooks/sms?x=1` of `https://example.com/hooks/sms?x=1`. */
function pathAndQuery(url: string): string {
  if (url.startsWith("/")) return url;
  const scheme = url.indexOf("://");
  const path = scheme === -1 ? -1 : url.indexOf("/", scheme + 3);
  const query = url.indexOf("?", scheme + 3);
  if (path === -1) return query === -1 ? "/" : `/${url.slice(query)}`;
  return query !== -1 && query < path ? `/${url.slice(query)}` : url.slice(path);
}

const firstOf = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined;

/** Checks `publicUrl` at setup: an http(s) URL without query or fragment, its trailing slash dropped. */
export function checkedPublicUrl(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(publicUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search !== "" || parsed.hash !== "") {
    throw new TypeError("publicUrl must be an http(s) URL without a query or fragment, e.g. https://hooks.example.com");
  }
  return publicUrl.replace(/\/+$/, "");
}

/**
 * The URL the sender called: `publicUrl` + the path and query received; else, with `trustProxy`, the forwarded
 * protocol and host; else the URL the adapter saw. Undefined when the adapter gave none.
 */
export function senderUrl(received: string | undefined, headers: HeaderSource, options: UrlRule): string | undefined {
  if (received === undefined) return undefined;
  if (options.publicUrl !== undefined) return options.publicUrl + pathAndQuery(received);
  if (options.trustProxy) {
    const proto = firstOf(headerValue(headers, "x-forwarded-proto"));
    const host = firstOf(headerValue(headers, "x-forwarded-host")) ?? headerValue(headers, "host");
    if (proto && host) return `${proto}://${host}${pathAndQuery(received)}`;
  }
  if (received.startsWith("/")) {
    const host = headerValue(headers, "host");
    return host ? `http://${host}${received}` : undefined;
  }
  return received;
}

/** The request as a URL-signing scheme reads it; its URL undefined when nothing said where it was sent. */
export function signedRequestOf(
  method: string | undefined,
  received: string | undefined,
  headers: HeaderSource,
  options: UrlRule,
): SignedRequest | undefined {
  const url = senderUrl(received, headers, options);
  return url === undefined ? undefined : { method: method?.toUpperCase() ?? "POST", url };
}

type UrlRule = { publicUrl: string | undefined; trustProxy: boolean };

/** The request a Receiver's URL-signing scheme reads: the adapter's URL, rebuilt as the sender called it. */
export function signedRequestFrom(
  { options }: { options: { requestUrl: UrlRule } },
  request: IncomingRequest,
): SignedRequest | undefined {
  let received: string | undefined;
  try {
    received = request.url?.();
  } catch {
    // An adapter that cannot say where the request went: no URL, which a scheme that signs one refuses (500).
    received = undefined;
  }
  return signedRequestOf(request.method, received, request.headers, options.requestUrl);
}
