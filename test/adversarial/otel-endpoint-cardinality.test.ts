import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { createReceiver, type SecretResolver, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import { instrument } from "@tidings/opentelemetry";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";

const SECRET = "whsec_cardinality";
const FORGED = 50;

const spans = new InMemorySpanExporter();
const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const meterProvider = new MeterProvider({ readers: [reader] });
let server: Server;
let url: string;

beforeAll(async () => {
  // One endpoint per account, named after the path: what a multi-tenant receiver does. Every path is "known" to it,
  // so the label comes back before anyone checked the signature.
  const resolve: SecretResolver = ({ params }) => ({ secret: SECRET, endpoint: params.account });
  const receiver = createReceiver({ secret: resolve, logger: { error() {}, warn() {} } });
  receiver.onAny(() => {});
  instrument(receiver, { tracerProvider, meterProvider });
  server = createServer(express().post("/webhooks/:account", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
});

async function post(path: string, body: string, signature: string): Promise<number> {
  const response = await fetch(`${url}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Every value `tidings.endpoint` takes across the data points of every metric. */
async function endpointLabels(): Promise<Set<unknown>> {
  metrics.reset();
  await reader.forceFlush();
  const labels = new Set<unknown>();
  for (const resource of metrics.getMetrics()) {
    for (const scope of resource.scopeMetrics) {
      for (const metric of scope.metrics) {
        for (const point of metric.dataPoints) {
          if ("tidings.endpoint" in point.attributes) labels.add(point.attributes["tidings.endpoint"]);
        }
      }
    }
  }
  return labels;
}

it("forged requests to endpoints named by the path add one metric series, `unverified`, not one per path", async () => {
  const body = JSON.stringify({ type: "message.sent", id: "evt_real", data: { id: "msg_1" } });
  expect(await post("acct_real", body, sign(body, SECRET))).toBe(200);
  const forgedSignature = sign(body, "whsec_not_the_secret");
  for (let n = 0; n < FORGED; n++) {
    expect(await post(`acct_forged_${n}`, body, forgedSignature)).toBe(400);
  }
  // A malformed header is refused before the resolver runs; a stale one after it: both unverified.
  expect(await post("acct_no_header", body, "t=1,v1=zz")).toBe(400);
  expect(await post("acct_stale", body, sign(body, SECRET, { timestamp: 1_000_000 }))).toBe(400);

  expect([...(await endpointLabels())].sort()).toEqual(["acct_real", "unverified"]);
  // Spans are one request's record, not a series: they keep the label the resolver gave.
  const labelled = spans.getFinishedSpans().filter((span) => span.name === "tidings.delivery");
  expect(labelled.filter((span) => span.attributes["tidings.endpoint"] === "acct_forged_7")).toHaveLength(1);
});
