/**
 * The parts of a Lambda HTTP event a webhook reads, common to API Gateway REST (v1 proxy), HTTP API (2.0 and 1.0
 * payloads), Function URLs and ALB. Declared here so the package needs no AWS types; `@types/aws-lambda`'s events
 * are assignable to it.
 *
 * @example
 * ```ts
 * import { createReceiver, sign } from "@tidings/core";
 * import { createLambdaHandler, type LambdaHttpEvent } from "@tidings/lambda";
 *
 * const handler = createLambdaHandler(createReceiver({ secret: "whsec_test" }));
 * // A test event as API Gateway's HTTP API (payload 2.0) sends it.
 * const body = JSON.stringify({
 *   id: "evt_1",
 *   type: "message.delivered",
 *   data: { id: "msg_1", status: "delivered", channel: "sms" },
 * });
 * const event: LambdaHttpEvent = {
 *   rawPath: "/webhooks",
 *   requestContext: { http: { method: "POST" } },
 *   headers: { "content-type": "application/json", "service-signature": sign(body, "whsec_test") },
 *   body,
 *   isBase64Encoded: false,
 * };
 * console.log(await handler(event)); // { statusCode: 200, body: '{"received":true}', ... }
 * ```
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
  /** The query as sent: HTTP API payload 2.0 and Function URLs. */
  rawQueryString?: string | undefined;
  /** The query's names and values: decoded by API Gateway, as sent by ALB. */
  queryStringParameters?: Readonly<Record<string, string | undefined>> | null | undefined;
  /** Every value of a repeated query name: REST API always; ALB only with multi-value headers on. */
  multiValueQueryStringParameters?: Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
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
        /** REST API: the path the client called, with the stage (`/prod/webhooks`) or a custom domain's base path. */
        path?: string | undefined;
        /** HTTP API payload 2.0 and Function URLs. */
        http?: { method: string } | undefined;
        /** Present only on ALB events. */
        elb?: unknown;
      }
    | undefined;
}

/**
 * One shape that satisfies every source: API Gateway v1 and v2, Function URLs and ALB.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from "@tidings/lambda";
 *
 * const webhook = createLambdaHandler(createReceiver({ secret: process.env.WEBHOOK_SECRET! }));
 *
 * // A handler of your own around it: log every refused delivery.
 * export async function handler(event: LambdaHttpEvent): Promise<LambdaHttpResult> {
 *   const result = await webhook(event);
 *   if (result.statusCode >= 400) console.warn(`webhook refused: ${result.statusCode} ${result.body}`);
 *   return result;
 * }
 * ```
 */
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
