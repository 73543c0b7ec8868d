import { WebhookVerificationError } from "@tidings/core";
import { type RequestTarget, targetOf } from "@tidings/core/adapter";
import type { LambdaHttpEvent } from "./events";

const NOT_PROXY =
  'The Lambda event carries no raw body string: a non-proxy API Gateway integration (a mapping template) parsed the JSON, so the signed bytes are gone. Use Lambda proxy integration for the webhook route (REST API: integration type LAMBDA_PROXY, "Use Lambda Proxy integration" in the console); HTTP APIs, Function URLs and ALB always deliver the raw body.';

/** Header names lower-cased, repeated values joined with ", ", from whichever header maps the source filled. */
export function eventHeaders(event: LambdaHttpEvent): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const previous = headers[key];
    headers[key] = previous === undefined ? value : `${previous}, ${value}`;
  };
  if (event.multiValueHeaders) {
    for (const [name, values] of Object.entries(event.multiValueHeaders))
      for (const value of values ?? []) add(name, value);
  } else if (event.headers) {
    for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) add(name, value);
  }
  return headers;
}

/** Where the delivery was sent, and the API Gateway route and path parameters that matched. */
export function eventTarget(event: LambdaHttpEvent): RequestTarget {
  const route = event.resource ?? event.routeKey?.replace(/^\S+\s+/, "");
  return targetOf(event.rawPath ?? event.path ?? "", route === "$default" ? undefined : route, event.pathParameters);
}

export function eventMethod(event: LambdaHttpEvent): string | undefined {
  return event.requestContext?.http?.method ?? event.httpMethod;
}

/** The body's bytes as the sender sent them (Content-Encoding still applied). */
export function eventBodyBytes(event: LambdaHttpEvent): Uint8Array {
  const { body } = event;
  if (typeof body === "string") return Buffer.from(body, event.isBase64Encoded ? "base64" : "utf8");
  // A proxy event without a body (GET, empty POST) has headers; an event that is the payload itself has neither.
  if ((body === null || body === undefined) && (event.headers || event.multiValueHeaders)) return new Uint8Array(0);
  throw new WebhookVerificationError("body_already_parsed", NOT_PROXY);
}
