/**
 * The parts of a Lambda HTTP event a webhook reads, common to API Gateway REST (v1 proxy), HTTP API (2.0 and 1.0
 * payloads), Function URLs and ALB. Declared here so the package needs no AWS types; `@types/aws-lambda`'s events
 * are assignable to it.
 */
export interface LambdaHttpEvent {
  /** REST API, ALB and HTTP API payload 1.0. */
  httpMethod?: string | undefined;
  /** Names as the client sent them (REST API) or lower-cased (HTTP API, ALB); repeated headers comma-joined. */
  headers?: Readonly<Record<string, string | undefined>> | null | undefined;
  /** REST API always; ALB only with multi-value headers on. */
  multiValueHeaders?: Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
  /** The body as text, or base64 when `isBase64Encoded`. Anything else means a mapping template parsed it. */
  body?: unknown;
  isBase64Encoded?: boolean | undefined;
  /** The path: REST API, ALB and HTTP API payload 1.0. */
  path?: string | undefined;
  /** The path: HTTP API payload 2.0 and Function URLs. */
  rawPath?: string | undefined;
  /** The route's parameters, e.g. `{ account: "acct_42" }` for `/webhooks/{account}` (API Gateway only). */
  pathParameters?: Readonly<Record<string, string | undefined>> | null | undefined;
  /** The REST API resource that matched: `/webhooks/{account}`. */
  resource?: string | undefined;
  /** The HTTP API route that matched: `POST /webhooks/{account}`. */
  routeKey?: string | undefined;
  requestContext?:
    | {
        /** REST API and HTTP API payload 1.0. */
        httpMethod?: string | undefined;
        /** HTTP API payload 2.0 and Function URLs. */
        http?: { method: string } | undefined;
        /** Present only on ALB events. */
        elb?: unknown;
      }
    | undefined;
}

/** One shape that satisfies every source: API Gateway v1 and v2, Function URLs and ALB. */
export interface LambdaHttpResult {
  statusCode: number;
  /** ALB only: "200 OK". */
  statusDescription?: string;
  headers?: Record<string, string>;
  /** ALB with multi-value headers on, which then ignores `headers`. */
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}
