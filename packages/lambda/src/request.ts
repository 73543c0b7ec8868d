import { WebhookVerificationError } from "@tidings/core";
import { type IncomingRequest, type RequestTarget, targetOf } from "@tidings/core/adapter";
import { decodeWireBody } from "@tidings/core/node";
import { type Fields, isFields, kindOf, stringOrUndefined } from "./fields";
import { eventUrl } from "./url";

const NOT_PROXY =
  'The Lambda event carries no raw body string: a non-proxy API Gateway integration (a mapping template) parsed the JSON, so the signed bytes are gone. Use Lambda proxy integration for the webhook route (REST API: integration type LAMBDA_PROXY, "Use Lambda Proxy integration" in the console); HTTP APIs, Function URLs and ALB always deliver the raw body.';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** A header name for a message: quoted, and cut short. */
const quoted = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", message);
}

/**
 * Header names lower-cased, repeated values joined with ", ", from whichever header map the source filled; or why
 * the event's headers cannot be read. A `null` value is an absent header; any other value that is not text is refused.
 */
export function eventHeaders(event: Fields): Record<string, string> | WebhookVerificationError {
  // No prototype: a header named "constructor" or "__proto__" is a header like any other.
  const headers: Record<string, string> = Object.create(null);
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const previous = headers[key];
    headers[key] = previous === undefined ? value : `${previous}, ${value}`;
  };
  const { multiValueHeaders, headers: single } = event;
  if (multiValueHeaders !== null && multiValueHeaders !== undefined) {
    if (!isFields(multiValueHeaders))
      return malformed(`The Lambda event's multiValueHeaders is ${kindOf(multiValueHeaders)}, not an object.`);
    for (const [name, values] of Object.entries(multiValueHeaders)) {
      if (values === null || values === undefined) continue;
      if (!Array.isArray(values) || !values.every((value) => typeof value === "string"))
        return malformed(
          `The Lambda event's multi-value header ${quoted(name)} is ${kindOf(values)}, not a list of strings.`,
        );
      for (const value of values) add(name, value);
    }
  } else if (single !== null && single !== undefined) {
    if (!isFields(single)) return malformed(`The Lambda event's headers is ${kindOf(single)}, not an object.`);
    for (const [name, value] of Object.entries(single)) {
      if (value === null || value === undefined) continue;
      if (typeof value !== "string")
        return malformed(`The Lambda event's header ${quoted(name)} is ${kindOf(value)}, not a string.`);
      add(name, value);
    }
  }
  return headers;
}

/** Where the delivery was sent, and the API Gateway route and path parameters that matched. */
export function eventTarget(event: Fields): RequestTarget {
  const route = stringOrUndefined(event.resource) ?? stringOrUndefined(event.routeKey)?.replace(/^\S+\s+/, "");
  const path = stringOrUndefined(event.rawPath) ?? stringOrUndefined(event.path) ?? "";
  const params = isFields(event.pathParameters) ? event.pathParameters : undefined;
  return targetOf(path, route === "$default" ? undefined : route, params);
}

export function eventMethod(event: Fields): string | undefined {
  const { requestContext } = event;
  const http = isFields(requestContext) ? requestContext.http : undefined;
  return stringOrUndefined(isFields(http) ? http.method : undefined) ?? stringOrUndefined(event.httpMethod);
}

/** The body's bytes as the sender sent them (Content-Encoding still applied). */
export function eventBodyBytes(event: Fields): Uint8Array {
  const { body } = event;
  if (typeof body === "string") return Buffer.from(body, event.isBase64Encoded === true ? "base64" : "utf8");
  // A proxy event without a body (GET, empty POST) has headers; an event that is the payload itself has neither.
  if ((body === null || body === undefined) && (isFields(event.headers) || isFields(event.multiValueHeaders)))
    return new Uint8Array(0);
  throw new WebhookVerificationError("body_already_parsed", NOT_PROXY);
}

/** A request the Receiver refuses with `error` once it has checked the method, as it does any unreadable one. */
function refused(method: string | undefined, error: WebhookVerificationError): IncomingRequest {
  return {
    method,
    headers: NO_HEADERS,
    readBody: () => {
      throw error;
    },
  };
}

/** The request a Lambda event carries, whatever shape the event has: the Receiver answers every one. */
export function eventRequest(event: unknown): IncomingRequest {
  if (!isFields(event))
    return refused(
      undefined,
      new WebhookVerificationError(
        "missing_header",
        `The Lambda event is ${kindOf(event)}, not an HTTP event from API Gateway, a Function URL or an ALB, so it carries no Service-Signature header.`,
      ),
    );
  const method = eventMethod(event);
  const headers = eventHeaders(event);
  if (headers instanceof WebhookVerificationError) return refused(method, headers);
  return {
    method,
    headers,
    readBody: ({ maxBodyBytes }) => decodeWireBody(eventBodyBytes(event), headers, maxBodyBytes),
    target: () => eventTarget(event),
    url: () => eventUrl(event, headers),
  };
}
