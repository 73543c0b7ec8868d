import { metrics, trace } from "@opentelemetry/api";
import { createReceiver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterAll, expect, it } from "vitest";
import { version } from "../package.json";
import { instrument } from "../src";
import { listen } from "./listen";
import { RecordingSdk } from "./sdk";
import { delivery, post, SECRET } from "./signed";

const sdk = new RecordingSdk();
afterAll(async () => {
  trace.disable();
  metrics.disable();
  await sdk.shutdown();
});

it("by default records with the global providers, also those registered after instrument() was called", async () => {
  const receiver = createReceiver({ secret: SECRET });
  receiver.on("message.sent", function record() {});
  instrument(receiver);
  const url = `${await listen(express().post("/webhooks", webhookMiddleware(receiver)))}/webhooks`;

  // The API alone, no SDK registered: nothing is recorded, and deliveries are answered as ever.
  expect(await post(url, delivery({ type: "message.sent", id: "evt_none" }))).toEqual({
    status: 200,
    code: "accepted",
  });
  // Metrics only: the spans still go to the API's no-op tracer.
  metrics.setGlobalMeterProvider(sdk.meterProvider);
  await post(url, delivery({ type: "message.sent", id: "evt_metrics" }));
  expect(sdk.spans()).toEqual([]);
  expect((await sdk.counter("tidings.deliveries")).map((point) => point.value)).toEqual([1]);
  // And traces.
  trace.setGlobalTracerProvider(sdk.tracerProvider);
  await post(url, delivery({ type: "message.sent", id: "evt_both" }));

  const spans = sdk.spans();
  expect(spans.map((span) => [span.name, span.attributes["tidings.delivery_key"]])).toEqual([
    ["tidings.handler", undefined],
    ["tidings.delivery", "event:evt_both"],
  ]);
  expect(spans[0]?.instrumentationScope).toMatchObject({ name: "@tidings/opentelemetry", version });
  expect((await sdk.counter("tidings.deliveries")).map((point) => point.value)).toEqual([2]);
});

it("records spans with a tracer provider of its own while the global meter provider is the API's no-op", async () => {
  const own = new RecordingSdk();
  const receiver = createReceiver({ secret: SECRET });
  metrics.disable();
  instrument(receiver, { tracerProvider: own.tracerProvider });
  const url = `${await listen(express().post("/webhooks", webhookMiddleware(receiver)))}/webhooks`;

  await post(url, delivery({ type: "message.sent", id: "evt_own" }));

  expect(own.spans().map((span) => span.name)).toEqual(["tidings.delivery"]);
  await own.shutdown();
});
