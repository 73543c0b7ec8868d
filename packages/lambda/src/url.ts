import { type Fields, isFields, stringOrUndefined } from "./fields";

type Encode = (text: string) => string;

const UTF8 = new TextEncoder();
/** What `encodeURIComponent` leaves as it is: `A-Z a-z 0-9 - _ . ! ~ * ' ( )`. */
const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;
const HEX = "0123456789ABCDEF";

/**
 * What API Gateway's REST API (and HTTP API payload 1.0) decoded, encoded again as `encodeURIComponent` does, but
 * with `+` for a space, as AWS decodes a `+` to one. The client's own bytes are gone, so this is the usual spelling of
 * each name and value: a `+` or `%2B` round-trips; a `%20` comes back as `+`, a `%7e` as `~`. A lone surrogate is
 * encoded as U+FFFD rather than thrown on.
 */
const reencoded: Encode = (text) => {
  let encoded = "";
  for (const byte of UTF8.encode(text)) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(char)) encoded += char;
    else if (byte === 0x20) encoded += "+";
    else encoded += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return encoded;
};

/** ALB hands names and values over as the client wrote them. */
const asSent: Encode = (text) => text;

/** `name=value&…` from the event's query map, every value of a repeated name in `multiValueQueryStringParameters`. */
function queryOf(event: Fields, encode: Encode): string {
  const multi = event.multiValueQueryStringParameters;
  const single = event.queryStringParameters;
  const pairs: string[] = [];
  const add = (name: string, value: unknown) => {
    if (typeof value === "string") pairs.push(`${encode(name)}=${encode(value)}`);
  };
  if (isFields(multi)) {
    for (const [name, values] of Object.entries(multi)) {
      if (Array.isArray(values)) for (const value of values) add(name, value);
    }
  } else if (isFields(single)) {
    for (const [name, value] of Object.entries(single)) add(name, value);
  }
  return pairs.join("&");
}

/**
 * The path and query the client called. HTTP API 2.0 and Function URLs keep both as sent (`rawPath`,
 * `rawQueryString`); a REST API's `requestContext.path` keeps the stage (`/prod/webhooks`) and a custom domain's base
 * path, where `path` drops them; ALB keeps the query as sent.
 */
function pathAndQuery(event: Fields): string | undefined {
  const rawPath = stringOrUndefined(event.rawPath);
  if (rawPath !== undefined) {
    const query = stringOrUndefined(event.rawQueryString);
    return query ? `${rawPath}?${query}` : rawPath;
  }
  const { requestContext } = event;
  const context = isFields(requestContext) ? requestContext : undefined;
  const path = stringOrUndefined(context?.path) ?? stringOrUndefined(event.path);
  if (path === undefined) return undefined;
  const query = queryOf(event, context?.elb === undefined ? reencoded : asSent);
  return query ? `${path}?${query}` : path;
}

const firstOf = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined;

/**
 * The URL the client called: the protocol the AWS front end set in `X-Forwarded-Proto` (it overwrites what the client
 * sent; `https` when absent), the `Host`, the path and query. Without a `Host`, the path and query alone.
 */
export function eventUrl(event: Fields, headers: Readonly<Record<string, string>>): string | undefined {
  const path = pathAndQuery(event);
  const { host } = headers;
  if (path === undefined || !host) return path;
  return `${firstOf(headers["x-forwarded-proto"])?.toLowerCase() ?? "https"}://${host}${path}`;
}
