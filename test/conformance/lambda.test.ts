import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from "@tidings/lambda";
import {
  albEvent,
  functionUrlEvent,
  type HttpRequest,
  httpApiEvent,
  restApiEvent,
} from "../../packages/lambda/test/aws-events";
import { listenOnLoopback } from "./http-client";
import { describeConformance } from "./suite";
import type { AnyReceiver } from "./target";

type Handler = (event: LambdaHttpEvent) => Promise<LambdaHttpResult>;

async function readRequest(req: IncomingMessage): Promise<HttpRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? "";
    if (name.toLowerCase() !== "x-forwarded-proto") headers.push([name, req.rawHeaders[i + 1] ?? ""]);
  }
  // AWS's front end says which protocol the client used, whatever the client said.
  headers.push(["X-Forwarded-Proto", "http"]);
  // Binary media types on: the body reaches the function base64-encoded, byte for byte.
  return {
    method: req.method ?? "GET",
    headers,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
    base64: true,
    url: req.url ?? "/",
  };
}

function writeResult(res: ServerResponse, result: LambdaHttpResult): void {
  const headers = result.multiValueHeaders ?? result.headers ?? {};
  res.writeHead(result.statusCode, headers);
  res.end(Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"));
}

/**
 * A stand-in for the AWS front end on node:http: each request becomes the event document AWS documents for the
 * source, the function's result becomes the response. (serverless-offline, which examples/lambda runs in the e2e
 * suite, takes seconds to start: too slow for a suite that starts an app per test.)
 */
function gateway(handler: Handler, toEvent: (request: HttpRequest) => LambdaHttpEvent | Promise<LambdaHttpEvent>) {
  return listenOnLoopback(
    createServer(async (req, res) => writeResult(res, await handler(await toEvent(await readRequest(req))))),
  );
}

/** A REST API non-proxy integration whose mapping template hands over `$input.json('$')` and the headers. */
function mappedEvent(request: HttpRequest): LambdaHttpEvent {
  const text = Buffer.from(request.body ?? []).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = {};
  }
  return { body, headers: Object.fromEntries(request.headers) };
}

const SOURCES = [
  { name: "HTTP API payload 2.0", toEvent: httpApiEvent },
  { name: "Function URL", toEvent: functionUrlEvent },
  { name: "REST API v1 proxy", toEvent: (request: HttpRequest) => restApiEvent(request) },
  {
    name: "ALB, multi-value headers",
    toEvent: (request: HttpRequest) => albEvent(request, { multiValueHeaders: true }),
  },
];

for (const { name, toEvent } of SOURCES) {
  describeConformance({
    name: `lambda (${name} events from node:http)`,
    buffersBody: true,
    start: (receiver: AnyReceiver) => gateway(createLambdaHandler(receiver), toEvent),
    startWithBodyParsedFirst: (receiver: AnyReceiver) => gateway(createLambdaHandler(receiver), mappedEvent),
  });
}
