// Lambda events shaped as the AWS documentation shows them (API Gateway developer guide "Input format of a Lambda
// function for proxy integration" and "HTTP API payload format version 2.0", Lambda "Invoking Lambda function URLs",
// ELB "Lambda functions as targets"), with the request line, headers and body of each test filled in.
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2, LambdaFunctionURLEvent } from "aws-lambda";

export interface HttpRequest {
  method: string;
  /** Header names exactly as the client sent them; a name may repeat. */
  headers: readonly (readonly [string, string])[];
  body?: Uint8Array | undefined;
  /** How the source hands the body over: base64 (binary media types, non-text content types) or text. */
  base64?: boolean;
  /** The path and query the client called, as it wrote them; `/webhooks` by default. */
  url?: string;
}

/** The path and the query (without its `?`) the client called, as written. */
function calledUrl(request: HttpRequest): { path: string; query: string } {
  const url = request.url ?? "/webhooks";
  const mark = url.indexOf("?");
  return mark === -1 ? { path: url, query: "" } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

/** The query's names and values, each name's values in order: decoded as API Gateway does (`+` is a space), or as sent (ALB). */
function queryMaps(query: string, decode: boolean) {
  const multi: Record<string, string[]> = Object.create(null);
  const pairs = decode
    ? [...new URLSearchParams(query)]
    : query
        .split("&")
        .filter(Boolean)
        .map((pair) => {
          const equals = pair.indexOf("=");
          return equals === -1 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)];
        });
  for (const [name = "", value = ""] of pairs) multi[name] = [...(multi[name] ?? []), value];
  const single = Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values.at(-1) ?? ""]));
  return { single, multi, empty: pairs.length === 0 };
}

function bodyField(request: HttpRequest): { body: string | null; isBase64Encoded: boolean } {
  if (request.body === undefined) return { body: null, isBase64Encoded: false };
  const base64 = request.base64 ?? false;
  return { body: Buffer.from(request.body).toString(base64 ? "base64" : "utf8"), isBase64Encoded: base64 };
}

/** Payload 2.0 leaves `body` out when there is none. */
function v2BodyField(request: HttpRequest): { body?: string; isBase64Encoded: boolean } {
  const { body, isBase64Encoded } = bodyField(request);
  return body === null ? { isBase64Encoded } : { body, isBase64Encoded };
}

/** Last value wins in `headers`, every value in `multiValueHeaders`: the REST API and ALB rules. */
function headerMaps(request: HttpRequest, lowerCase: boolean) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [sent, value] of request.headers) {
    const name = lowerCase ? sent.toLowerCase() : sent;
    headers[name] = value;
    const values = multiValueHeaders[name] ?? [];
    values.push(value);
    multiValueHeaders[name] = values;
  }
  return { headers, multiValueHeaders };
}

/** HTTP API and Function URLs: names lower-cased, repeated values joined with commas. */
function joinedHeaders(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [sent, value] of request.headers) {
    const name = sent.toLowerCase();
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  return headers;
}

/**
 * A REST API proxy event. With `stage`, the client called the API's own domain (`/prod/webhooks`), and `path` drops
 * the stage; without, a custom domain, where `path` is what was called.
 */
export function restApiEvent(request: HttpRequest, { stage }: { stage?: string } = {}): APIGatewayProxyEvent {
  const { path: called, query } = calledUrl(request);
  const { single, multi, empty } = queryMaps(query, true);
  return {
    resource: "/webhooks",
    path: stage && called.startsWith(`/${stage}/`) ? called.slice(stage.length + 1) : called,
    httpMethod: request.method,
    ...headerMaps(request, false),
    queryStringParameters: empty ? null : single,
    multiValueQueryStringParameters: empty ? null : multi,
    requestContext: {
      accountId: "123456789012",
      apiId: "id",
      authorizer: { claims: null, scopes: null },
      domainName: "id.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "id",
      extendedRequestId: "request-id",
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: "192.0.2.1",
        user: null,
        userAgent: "user-agent",
        userArn: null,
      },
      path: called,
      protocol: "HTTP/1.1",
      requestId: "id=",
      requestTime: "04/Mar/2020:19:15:17 +0000",
      requestTimeEpoch: 1583349317135,
      resourceId: "abc123",
      resourcePath: "/webhooks",
      stage: stage ?? "prod",
    },
    pathParameters: null,
    stageVariables: null,
    ...bodyField(request),
  };
}

export function httpApiEvent(request: HttpRequest): APIGatewayProxyEventV2 {
  const { path, query } = calledUrl(request);
  const { multi, empty } = queryMaps(query, true);
  const joined = Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values.join(",")]));
  return {
    version: "2.0",
    routeKey: "POST /webhooks",
    rawPath: path,
    rawQueryString: query,
    ...(empty ? {} : { queryStringParameters: joined }),
    headers: joinedHeaders(request),
    requestContext: {
      accountId: "123456789012",
      apiId: "api-id",
      domainName: "id.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "id",
      http: {
        method: request.method,
        path,
        protocol: "HTTP/1.1",
        sourceIp: "192.0.2.1",
        userAgent: "agent",
      },
      requestId: "id",
      routeKey: "POST /webhooks",
      stage: "$default",
      time: "12/Mar/2020:19:03:58 +0000",
      timeEpoch: 1583348638390,
    },
    ...v2BodyField(request),
  };
}

/** A Function URL event is an HTTP API 2.0 event of the `$default` route on the function's own domain. */
export function functionUrlEvent(request: HttpRequest): LambdaFunctionURLEvent {
  const event = httpApiEvent(request);
  return {
    ...event,
    routeKey: "$default",
    requestContext: {
      ...event.requestContext,
      accountId: "anonymous",
      apiId: "<urlid>",
      domainName: "<url-id>.lambda-url.us-west-2.on.aws",
      domainPrefix: "<url-id>",
      http: { ...event.requestContext.http, sourceIp: "123.123.123.123" },
      routeKey: "$default",
    },
  };
}

/** ALB lower-cases header names; with multi-value headers on it sends only the multi-value maps. */
export function albEvent(request: HttpRequest, { multiValueHeaders = false } = {}): ALBEvent {
  const maps = headerMaps(request, true);
  const { path, query } = calledUrl(request);
  const { single, multi } = queryMaps(query, false);
  return {
    requestContext: {
      elb: {
        targetGroupArn:
          "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/lambda-279XGJDqGZ5rsrHC2Fjr/49e9d65c45c6791a",
      },
    },
    httpMethod: request.method,
    path,
    ...(multiValueHeaders
      ? { multiValueQueryStringParameters: multi, multiValueHeaders: maps.multiValueHeaders }
      : { queryStringParameters: single, headers: maps.headers }),
    ...bodyField(request),
  };
}
