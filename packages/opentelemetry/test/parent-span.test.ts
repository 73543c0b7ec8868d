import { context, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { instrument } from "../src";
import { listen } from "./listen";
import { RecordingSdk } from "./sdk";
import { delivery, post, SECRET } from "./signed";

// What a Node app with OpenTelemetry has: a context manager that carries the active span across awaits.
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});

it("the delivery span is a child of the span active around the request (the HTTP server span)", async () => {
  const sdk = new RecordingSdk();
  const tracer = sdk.tracerProvider.getTracer("test");
  const receiver = createReceiver({ secret: SECRET });
  receiver.on("message.delivered", function updateStatus() {
    // The handler's own span: the delivery's span does not exist yet, so this one's parent is the server span.
    tracer.startActiveSpan("UPDATE messages", (span) => span.end());
  });
  instrument(receiver, sdk.options);
  const app = express().post("/webhooks", webhookMiddleware(receiver));
  // As HTTP instrumentation does: a SERVER span, active while the app handles the request, ended with the response.
  const url = await listen((request, response) => {
    const server = tracer.startSpan("POST /webhooks", { kind: SpanKind.SERVER });
    response.once("finish", () => server.end());
    context.with(trace.setSpan(context.active(), server), () => app(request, response));
  });

  expect(await post(`${url}/webhooks`, delivery({ type: "message.delivered", id: "evt_parent" }))).toEqual({
    status: 200,
    code: "accepted",
  });

  const [server] = sdk.spanNamed("POST /webhooks");
  const [span] = sdk.spanNamed("tidings.delivery");
  const [handler] = sdk.spanNamed("tidings.handler");
  const [own] = sdk.spanNamed("UPDATE messages");
  expect(span?.spanContext().traceId).toBe(server?.spanContext().traceId);
  expect(span?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
  expect(handler?.parentSpanContext?.spanId).toBe(span?.spanContext().spanId);
  expect(own?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
  await sdk.shutdown();
});
