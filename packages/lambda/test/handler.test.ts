import { gzipSync } from "node:zlib";
import { createReceiver, type DeliveryContext, type ReceiverOptions, sign } from "@tidings/core";
import type {
  ALBHandler,
  APIGatewayProxyHandler,
  APIGatewayProxyHandlerV2,
  LambdaFunctionURLHandler,
} from "aws-lambda";
import { describe, expect, it } from "vitest";
import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from "../src/index";
import { albEvent, functionUrlEvent, type HttpRequest, httpApiEvent, restApiEvent } from "./aws-events";

const SECRET = "whsec_lambda";

function setup(options: Partial<ReceiverOptions<Record<string, object>>> = {}) {
  const seen: DeliveryContext[] = [];
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} }, ...options });
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  return { handler: createLambdaHandler(receiver), receiver, seen };
}

function eventBody(id = `evt_${Math.random().toString(36).slice(2)}`): Uint8Array {
  const event = { id, type: "message.delivered", data: { id: "msg_1", status: "delivered", channel: "sms" } };
  return new TextEncoder().encode(JSON.stringify(event));
}

/** A signed POST; `signatureHeader` is the header name as the client spelled it. */
function delivery(
  body: Uint8Array,
  options: { signatureHeader?: string; sendBody?: Uint8Array; base64?: boolean; headers?: [string, string][] } = {},
): HttpRequest {
  return {
    method: "POST",
    headers: [
      ["Content-Type", "application/json"],
      [options.signatureHeader ?? "Service-Signature", sign(body, SECRET)],
      ...(options.headers ?? []),
    ],
    body: options.sendBody ?? body,
    base64: options.base64 ?? false,
  };
}

function errorCode(result: LambdaHttpResult): string | undefined {
  return (JSON.parse(result.body) as { error?: { code?: string } }).error?.code;
}

const SOURCES: { name: string; event: (request: HttpRequest) => LambdaHttpEvent }[] = [
  { name: "API Gateway REST API (v1 proxy)", event: restApiEvent },
  { name: "API Gateway HTTP API (payload 2.0)", event: httpApiEvent },
  { name: "Lambda Function URL", event: functionUrlEvent },
  { name: "ALB", event: (request) => albEvent(request) },
  { name: "ALB with multi-value headers", event: (request) => albEvent(request, { multiValueHeaders: true }) },
];

describe.each(SOURCES)("createLambdaHandler behind $name", ({ event }) => {
  it("accepts a signed delivery sent as text", async () => {
    const { handler, seen } = setup();
    const body = eventBody("evt_text");
    const result = await handler(event(delivery(body)));
    expect([result.statusCode, JSON.parse(result.body)]).toEqual([200, { received: true }]);
    expect(seen.map((context) => context.deliveryKey)).toEqual(["event:evt_text"]);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("verifies a base64 body over its decoded bytes, invalid UTF-8 included", async () => {
    const { handler, seen } = setup();
    const body = new Uint8Array(
      Buffer.concat([
        Buffer.from('{"id":"evt_bin","type":"message.sent","note":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
    );
    const result = await handler(event(delivery(body, { base64: true })));
    expect(result.statusCode).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("undoes a gzip Content-Encoding, whatever the case of the header names", async () => {
    const { handler, seen } = setup();
    const body = eventBody();
    const request = delivery(body, {
      signatureHeader: "SERVICE-SIGNATURE",
      sendBody: new Uint8Array(gzipSync(body)),
      base64: true,
      headers: [["Content-Encoding", "gzip"]],
    });
    expect((await handler(event(request))).statusCode).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("rejects a tampered body with 400 signature_mismatch", async () => {
    const { handler, seen } = setup();
    const result = await handler(event(delivery(eventBody(), { sendBody: eventBody() })));
    expect([result.statusCode, errorCode(result)]).toEqual([400, "signature_mismatch"]);
    expect(result.body).not.toContain(SECRET);
    expect(seen).toHaveLength(0);
  });

  it("refuses a body over maxBodyBytes with 413", async () => {
    const { handler, seen } = setup({ maxBodyBytes: 64 });
    const result = await handler(event(delivery(eventBody(), { base64: true })));
    expect([result.statusCode, errorCode(result)]).toEqual([413, "payload_too_large"]);
    expect(seen).toHaveLength(0);
  });

  it("answers 405 with Allow: POST to a GET", async () => {
    const { handler } = setup();
    const result = await handler(event({ method: "GET", headers: [["Accept", "*/*"]] }));
    expect(result.statusCode).toBe(405);
    const allow = result.headers?.allow ?? result.multiValueHeaders?.allow?.[0];
    expect(allow).toBe("POST");
  });
});

describe("the result in each source's shape", () => {
  it("API Gateway and Function URLs: statusCode, headers, body, isBase64Encoded", async () => {
    const { handler } = setup();
    for (const build of [restApiEvent, httpApiEvent, functionUrlEvent]) {
      const result = await handler(build(delivery(eventBody())));
      expect(result).toEqual({
        statusCode: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: '{"received":true}',
        isBase64Encoded: false,
      });
    }
  });

  it("ALB: adds statusDescription", async () => {
    const { handler } = setup();
    const result = await handler(albEvent(delivery(eventBody(), { sendBody: eventBody() })));
    expect(result.statusDescription).toBe("400 Bad Request");
    expect(result.headers?.["content-type"]).toBe("application/json; charset=utf-8");
    expect(result.multiValueHeaders).toBeUndefined();
  });

  it("ALB with multi-value headers: answers in multiValueHeaders only, as ALB then ignores headers", async () => {
    const { handler } = setup();
    const result = await handler(albEvent(delivery(eventBody()), { multiValueHeaders: true }));
    expect(result).toEqual({
      statusCode: 200,
      statusDescription: "200 OK",
      multiValueHeaders: { "content-type": ["application/json; charset=utf-8"] },
      body: '{"received":true}',
      isBase64Encoded: false,
    });
  });

  it("a failing handler: 500, with the ALB description", async () => {
    const { handler, receiver } = setup();
    receiver.on("message.delivered", () => {
      throw new Error("database down");
    });
    const result = await handler(albEvent(delivery(eventBody())));
    expect([result.statusCode, result.statusDescription, errorCode(result)]).toEqual([
      500,
      "500 Internal Server Error",
      "handler_failed",
    ]);
  });
});

describe("an event from a non-proxy integration", () => {
  it("answers 500 body_already_parsed naming the fix when a mapping template parsed the body", async () => {
    const { handler, seen } = setup();
    const body = eventBody();
    // The usual hand-written template: { "body": $input.json('$'), "headers": { ... } }.
    const mapped = {
      body: JSON.parse(Buffer.from(body).toString()),
      headers: { "Service-Signature": sign(body, SECRET) },
    };
    const result = await handler(mapped);
    expect([result.statusCode, errorCode(result)]).toEqual([500, "body_already_parsed"]);
    expect(JSON.parse(result.body).error.message).toMatch(/Lambda proxy integration/);
    expect(seen).toHaveLength(0);
  });

  it("answers the same when the event is the parsed payload itself (the passthrough template)", async () => {
    const { handler } = setup();
    const result = await handler(JSON.parse(Buffer.from(eventBody()).toString()));
    expect([result.statusCode, errorCode(result)]).toEqual([500, "body_already_parsed"]);
  });
});

describe("types", () => {
  it("fits each @types/aws-lambda handler type", () => {
    const { handler } = setup();
    const rest: APIGatewayProxyHandler = handler;
    const httpApi: APIGatewayProxyHandlerV2 = handler;
    const functionUrl: LambdaFunctionURLHandler = handler;
    const alb: ALBHandler = handler;
    expect([rest, httpApi, functionUrl, alb].every((fn) => fn === handler)).toBe(true);
  });
});
