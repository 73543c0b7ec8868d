import { type Attributes, type Context, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { DeliveryOutcome } from "@tidings/core";
import { addMethod, recordableKey } from "./attributes";
import { childContext, recordHandlerRuns } from "./handler-runs";
import type { Recorder } from "./telemetry";

/** The endpoint label a metric may carry: a request that did not verify is anyone's, and its label `unverified`. */
const UNVERIFIED_ENDPOINT = "unverified";

/**
 * What both the metrics and the span of a delivery carry: low-cardinality facts only, never the path (it may hold ids)
 * or the delivery key. A new object per call, never a copy of another: V8 gives each spread copy that then gains
 * properties a shape of its own, which costs microseconds per delivery. `endpoint` is the label to record.
 */
function commonAttributes(
  { code, status, target, delivery, retiredSecretIndex }: DeliveryOutcome,
  endpoint: string | undefined,
): Attributes {
  const attributes: Attributes = { "tidings.outcome": code, "http.response.status_code": status };
  if (target?.route !== undefined) attributes["http.route"] = target.route;
  // A sender still on a rotated-out secret, told apart from a wrong secret (the sender's answer is the same).
  if (retiredSecretIndex !== undefined) attributes["tidings.secret.retired"] = true;
  if (endpoint !== undefined) attributes["tidings.endpoint"] = endpoint;
  if (delivery !== undefined) attributes["tidings.event.type"] = delivery.type;
  return attributes;
}

/**
 * The endpoint label for metrics. The resolver labels a request before its signature is checked, often from the path,
 * so an unverified request's label is whatever the sender chose: recorded as `unverified`, so that forged requests
 * cannot add metric series.
 */
function metricEndpoint({ endpoint, delivery }: DeliveryOutcome): string | undefined {
  if (delivery !== undefined) return delivery.endpoint;
  return endpoint === undefined ? undefined : UNVERIFIED_ENDPOINT;
}

/** A delivery's span (with one child per handler run) and its metrics. */
export function recordDelivery(recorder: Recorder, outcome: DeliveryOutcome, parent: Context): void {
  const { code, status, target, delivery, startedAt, durationMs } = outcome;
  const { tracer, instruments } = recorder;
  const metricAttributes = commonAttributes(outcome, metricEndpoint(outcome));
  instruments.deliveries.add(1, metricAttributes);
  instruments.deliveryDuration.record(durationMs / 1000, metricAttributes);
  if (code === "accepted" && delivery !== undefined) {
    const skew = startedAt / 1000 - delivery.timestamp;
    // Histograms take no negative values: the sign is an attribute.
    const skewAttributes: Attributes = { "tidings.clock_skew.direction": skew < 0 ? "future" : "past" };
    if (delivery.endpoint !== undefined) skewAttributes["tidings.endpoint"] = delivery.endpoint;
    instruments.clockSkew.record(Math.abs(skew), skewAttributes);
  }

  // A span is one request's record: the resolver's label, verified or not, helps find it.
  const attributes = commonAttributes(outcome, outcome.endpoint ?? delivery?.endpoint);
  addMethod(attributes, outcome.method);
  if (target?.path) attributes["url.path"] = target.path;
  if (outcome.retiredSecretIndex !== undefined) attributes["tidings.secret_index"] = outcome.retiredSecretIndex;
  if (delivery !== undefined) {
    attributes["tidings.duplicate"] = code === "duplicate";
    attributes["tidings.secret_index"] = delivery.secretIndex;
    attributes["tidings.timestamp"] = delivery.timestamp;
    const key = recordableKey(delivery.deliveryKey);
    if (key !== undefined) attributes["tidings.delivery_key"] = key;
  }
  // A 4xx is the sender's mistake, not this server's: only 5xx marks the span failed (HTTP semantic conventions).
  const failed = status >= 500;
  if (failed) attributes["error.type"] = code;
  const span = tracer.startSpan(
    "tidings.delivery",
    { kind: SpanKind.INTERNAL, startTime: startedAt, attributes },
    parent,
  );
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  recordHandlerRuns(recorder, outcome.handlers, delivery?.type, childContext(span, parent));
  span.end(startedAt + durationMs);
}
