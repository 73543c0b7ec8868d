import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createReceiver, type DeliveryStore, type Receiver, type SecretResolver } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { instrument } from "../src";
import { listen } from "./listen";
import { RecordingSdk, seconds } from "./sdk";
import { delivery, post, SECRET } from "./signed";

const quiet = { error() {}, warn() {} };
const ROUTE = "/webhooks/:account";

let sdk: RecordingSdk;
beforeEach(() => {
  sdk = new RecordingSdk();
});
afterEach(() => sdk.shutdown());

/** The receiver, instrumented, behind Express on a loopback port; the URL of `/webhooks/acct_42`. */
async function serve(receiver: Receiver): Promise<string> {
  instrument(receiver, sdk.options);
  const app = express().post(ROUTE, webhookMiddleware(receiver));
  return `${await listen(app)}/webhooks/acct_42`;
}

/** The one delivery span exported, and what its duration is in seconds. */
function deliverySpan() {
  const spans = sdk.spanNamed("tidings.delivery");
  expect(spans).toHaveLength(1);
  const span = spans[0] as NonNullable<(typeof spans)[0]>;
  return { span, durationSeconds: seconds(span.duration) };
}

describe("a delivery's span, handler spans and metrics", () => {
  it("accepted: the span with HTTP and tidings attributes, a child per handler, every metric", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    receiver.on("message.delivered", function markDelivered() {});
    receiver.onAny(async () => {});
    const url = await serve(receiver);
    const timestamp = Math.floor(Date.now() / 1000) - 30;

    expect(await post(url, delivery({ type: "message.delivered", id: "evt_1" }, { timestamp }))).toEqual({
      status: 200,
      code: "accepted",
    });

    const { span, durationSeconds } = deliverySpan();
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toEqual({
      "http.request.method": "POST",
      "http.route": ROUTE,
      "url.path": "/webhooks/acct_42",
      "http.response.status_code": 200,
      "tidings.outcome": "accepted",
      "tidings.duplicate": false,
      "tidings.event.type": "message.delivered",
      "tidings.secret_index": 0,
      "tidings.timestamp": timestamp,
      "tidings.delivery_key": "event:evt_1",
    });
    expect(span.instrumentationScope.name).toBe("@tidings/opentelemetry");

    const handlers = sdk.childrenOf(span);
    // The function's name is an attribute: span names do not grow with the app's handlers.
    expect(handlers.map((handler) => handler.name)).toEqual(["tidings.handler", "tidings.handler"]);
    expect(handlers.map((handler) => handler.attributes)).toEqual([
      {
        "tidings.handler.name": "markDelivered",
        "tidings.handler.on": "message.delivered",
        "tidings.event.type": "message.delivered",
      },
      { "tidings.handler.name": "anonymous", "tidings.handler.on": "*", "tidings.event.type": "message.delivered" },
    ]);
    for (const handler of handlers) {
      expect(handler.status.code).toBe(SpanStatusCode.UNSET);
      expect(seconds(handler.startTime)).toBeGreaterThanOrEqual(seconds(span.startTime));
      expect(seconds(handler.endTime)).toBeLessThanOrEqual(seconds(span.endTime));
    }

    const attributes = {
      "tidings.outcome": "accepted",
      "http.response.status_code": 200,
      "http.route": ROUTE,
      "tidings.event.type": "message.delivered",
    };
    expect(await sdk.counter("tidings.deliveries")).toEqual([{ attributes, value: 1 }]);
    const [duration] = await sdk.histogram("tidings.delivery.duration");
    expect(duration).toMatchObject({ attributes, count: 1 });
    expect(duration?.sum).toBeCloseTo(durationSeconds, 6);
    const handlerDurations = await sdk.histogram("tidings.handler.duration");
    expect(handlerDurations.map((point) => point.attributes)).toEqual(handlers.map((handler) => handler.attributes));
    handlerDurations.forEach((point, index) => {
      expect(point.sum).toBeCloseTo(seconds((handlers[index] as (typeof handlers)[0]).duration), 6);
    });
    // The skew is measured from when the Receiver took the request, which is where the span starts.
    const [skew] = await sdk.histogram("tidings.clock_skew");
    expect(skew?.attributes).toEqual({ "tidings.clock_skew.direction": "past" });
    expect(skew?.sum).toBeCloseTo(seconds(span.startTime) - timestamp, 3);
    expect((await sdk.metrics()).get("tidings.delivery.duration")?.descriptor.unit).toBe("s");
  });

  it("duplicate: tidings.duplicate, no handler ran, counted apart from the accepted one", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    receiver.on("message.sent", function record() {});
    const url = await serve(receiver);
    const sent = delivery({ type: "message.sent", id: "evt_dup" });

    await post(url, sent);
    expect(await post(url, sent)).toEqual({ status: 200, code: "duplicate" });

    const [first, second] = sdk.spanNamed("tidings.delivery");
    expect(first?.attributes["tidings.duplicate"]).toBe(false);
    expect(second?.attributes).toMatchObject({ "tidings.outcome": "duplicate", "tidings.duplicate": true });
    expect(second?.status.code).toBe(SpanStatusCode.UNSET);
    expect(sdk.childrenOf(second as NonNullable<typeof second>)).toEqual([]);
    const counts = (await sdk.counter("tidings.deliveries")).map(({ attributes, value }) => [
      attributes["tidings.outcome"],
      value,
    ]);
    expect(counts).toEqual([
      ["accepted", 1],
      ["duplicate", 1],
    ]);
    // Only accepted deliveries measure the clock: a replay's timestamp is as old as the first delivery's.
    expect(await sdk.histogram("tidings.clock_skew")).toHaveLength(1);
  });

  it("refused (signature_mismatch, 400): a 4xx is no server error, and nothing past the check is recorded", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    const url = await serve(receiver);

    expect(await post(url, delivery({ type: "message.sent", id: "evt_bad" }, { secret: "whsec_other" }))).toEqual({
      status: 400,
      code: "signature_mismatch",
    });

    const { span } = deliverySpan();
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.attributes).toEqual({
      "http.request.method": "POST",
      "http.route": ROUTE,
      "url.path": "/webhooks/acct_42",
      "http.response.status_code": 400,
      "tidings.outcome": "signature_mismatch",
    });
    expect(await sdk.counter("tidings.deliveries")).toEqual([
      {
        attributes: { "tidings.outcome": "signature_mismatch", "http.response.status_code": 400, "http.route": ROUTE },
        value: 1,
      },
    ]);
    expect(await sdk.histogram("tidings.clock_skew")).toEqual([]);
  });

  it("signed with a secret past its notAfter: answered as a wrong secret, marked retired with the secret's index", async () => {
    const rotation = [{ value: "whsec_retired", notAfter: Date.now() - 60_000 }, SECRET];
    const receiver = createReceiver({ secret: rotation, logger: quiet });
    const url = await serve(receiver);

    expect(await post(url, delivery({ type: "message.sent", id: "evt_old" }, { secret: "whsec_retired" }))).toEqual({
      status: 400,
      code: "signature_mismatch",
    });

    const { span } = deliverySpan();
    expect(span.attributes).toMatchObject({
      "tidings.outcome": "signature_mismatch",
      "tidings.secret.retired": true,
      "tidings.secret_index": 0,
    });
    expect(await sdk.counter("tidings.deliveries")).toEqual([
      {
        attributes: {
          "tidings.outcome": "signature_mismatch",
          "http.response.status_code": 400,
          "http.route": ROUTE,
          "tidings.secret.retired": true,
        },
        value: 1,
      },
    ]);
  });

  it("shed (503 overloaded): past maxConcurrentDeliveries, counted and marked failed, no handler ran", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet, maxConcurrentDeliveries: 1 });
    let release = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const inHandler = new Promise<void>((resolve) => {
      started = resolve;
    });
    receiver.onAny(() => {
      started();
      return blocked;
    });
    const url = await serve(receiver);

    const first = post(url, delivery({ type: "message.sent", id: "evt_slow" }));
    await inHandler;
    expect(await post(url, delivery({ type: "message.sent", id: "evt_shed" }))).toEqual({
      status: 503,
      code: "overloaded",
    });
    release();
    expect(await first).toEqual({ status: 200, code: "accepted" });

    const counted = await sdk.counter("tidings.deliveries");
    expect(counted.find(({ attributes }) => attributes["tidings.outcome"] === "overloaded")).toMatchObject({
      value: 1,
    });
    const shed = sdk.spanNamed("tidings.delivery").find((span) => span.attributes["tidings.outcome"] === "overloaded");
    expect(shed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "overloaded" });
    expect(shed?.attributes["error.type"]).toBe("overloaded");
  });

  it("handler failed (500): ERROR on the delivery, the exception on the failed handler's span", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    receiver.on("message.failed", async function chargeCustomer() {
      throw new TypeError("billing database unreachable");
    });
    receiver.on("message.failed", function notify() {});
    const url = await serve(receiver);

    expect(await post(url, delivery({ type: "message.failed", id: "evt_fail" }))).toEqual({
      status: 500,
      code: "handler_failed",
    });

    const { span } = deliverySpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "handler_failed" });
    expect(span.attributes).toMatchObject({ "error.type": "handler_failed", "http.response.status_code": 500 });
    const handlers = sdk.childrenOf(span);
    const failed = handlers.find((handler) => handler.attributes["tidings.handler.name"] === "chargeCustomer");
    const succeeded = handlers.find((handler) => handler.attributes["tidings.handler.name"] === "notify");
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "billing database unreachable" });
    expect(failed?.attributes["error.type"]).toBe("TypeError");
    expect(failed?.events.map((event) => [event.name, event.attributes?.["exception.type"]])).toEqual([
      ["exception", "TypeError"],
    ]);
    expect(failed?.events[0]?.attributes?.["exception.message"]).toBe("billing database unreachable");
    expect(succeeded?.status.code).toBe(SpanStatusCode.UNSET);
    expect(succeeded?.events).toEqual([]);

    const handlerPoints = await sdk.histogram("tidings.handler.duration");
    expect(handlerPoints.map((point) => point.attributes["error.type"]).sort()).toEqual(["TypeError", undefined]);
    expect((await sdk.counter("tidings.deliveries"))[0]?.attributes["tidings.outcome"]).toBe("handler_failed");
    expect(await sdk.histogram("tidings.clock_skew")).toEqual([]);
  });

  it("store down (503 store_unavailable): ERROR, no handler ran", async () => {
    const unreachable: DeliveryStore = {
      claim: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
      complete: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
      release: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
    };
    const receiver = createReceiver({ secret: SECRET, store: unreachable, logger: quiet });
    receiver.onAny(function neverRuns() {});
    const url = await serve(receiver);

    expect(await post(url, delivery({ type: "message.sent", id: "evt_store" }))).toEqual({
      status: 503,
      code: "store_unavailable",
    });

    const { span } = deliverySpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "store_unavailable" });
    expect(span.attributes).toMatchObject({
      "tidings.outcome": "store_unavailable",
      "error.type": "store_unavailable",
      "tidings.event.type": "message.sent",
      "tidings.duplicate": false,
    });
    expect(sdk.childrenOf(span)).toEqual([]);
    expect(await sdk.histogram("tidings.handler.duration")).toEqual([]);
  });

  it("with a secret resolver: the endpoint label on spans and metrics, 404 unknown_endpoint for others", async () => {
    const resolve: SecretResolver = ({ params }) =>
      params.account === "acct_42" ? { secret: SECRET, endpoint: "acct_42" } : undefined;
    const receiver = createReceiver({ secret: resolve, logger: quiet });
    const url = await serve(receiver);

    expect(await post(url, delivery({ type: "message.sent", id: "evt_ep" }))).toEqual({
      status: 200,
      code: "accepted",
    });
    expect(
      await post(url.replace("acct_42", "acct_unknown"), delivery({ type: "message.sent", id: "evt_ep" })),
    ).toEqual({ status: 404, code: "unknown_endpoint" });

    const [known, unknown] = sdk.spanNamed("tidings.delivery");
    expect(known?.attributes).toMatchObject({
      "tidings.endpoint": "acct_42",
      "tidings.delivery_key": "endpoint:acct_42:event:evt_ep",
    });
    expect(unknown?.attributes).toEqual({
      "http.request.method": "POST",
      "http.route": ROUTE,
      "url.path": "/webhooks/acct_unknown",
      "http.response.status_code": 404,
      "tidings.outcome": "unknown_endpoint",
    });
    expect(unknown?.status.code).toBe(SpanStatusCode.UNSET);
    expect((await sdk.counter("tidings.deliveries")).map((point) => point.attributes)).toEqual([
      {
        "tidings.outcome": "accepted",
        "http.response.status_code": 200,
        "http.route": ROUTE,
        "tidings.endpoint": "acct_42",
        "tidings.event.type": "message.sent",
      },
      { "tidings.outcome": "unknown_endpoint", "http.response.status_code": 404, "http.route": ROUTE },
    ]);
    expect((await sdk.histogram("tidings.clock_skew"))[0]?.attributes).toEqual({
      "tidings.clock_skew.direction": "past",
      "tidings.endpoint": "acct_42",
    });
  });

  it("a signed timestamp ahead of this clock: the skew's direction is future", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    const url = await serve(receiver);
    const timestamp = Math.floor(Date.now() / 1000) + 60;

    await post(url, delivery({ type: "message.sent", id: "evt_future" }, { timestamp }));

    const { span } = deliverySpan();
    const [skew] = await sdk.histogram("tidings.clock_skew");
    expect(skew?.attributes).toEqual({ "tidings.clock_skew.direction": "future" });
    expect(skew?.sum).toBeCloseTo(timestamp - seconds(span.startTime), 3);
  });

  it("never records the secret, the signature or the body; no delivery key for an event without an id", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quiet });
    receiver.onAny(function fails() {
      throw new Error("failed");
    });
    const url = await serve(receiver);
    const sent = delivery({ type: "message.sent", data: { id: "msg_secretive", note: "personal data" } });

    await post(url, sent);
    await post(url, delivery({ type: "message.sent", data: { id: "msg_other" } }, { secret: "whsec_wrong" }));

    const [span] = sdk.spanNamed("tidings.delivery");
    expect(span?.attributes["tidings.delivery_key"]).toBeUndefined();
    const signatureHex = sent.signature.split("v1=")[1] as string;
    const recorded = JSON.stringify({
      spans: sdk.spans().map(({ name, attributes, events, status }) => ({ name, attributes, events, status })),
      metrics: [...(await sdk.metrics()).values()].map((metric) => metric.dataPoints),
    });
    for (const secretive of [SECRET, signatureHex, "personal data", "msg_secretive", "msg_other"]) {
      expect(recorded).not.toContain(secretive);
    }
  });
});
