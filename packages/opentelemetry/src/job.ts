import { type Attributes, type Context, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { JobOutcome } from "@tidings/core/dispatch";
import { recordableKey } from "./attributes";
import { childContext, recordHandlerRuns } from "./handler-runs";
import type { Recorder } from "./telemetry";

/** What both the metrics and the span of a job run carry (a new object per call: see `commonAttributes` of a delivery). */
function commonAttributes({ code, delivery }: JobOutcome): Attributes {
  const attributes: Attributes = { "tidings.outcome": code };
  if (delivery?.endpoint !== undefined) attributes["tidings.endpoint"] = delivery.endpoint;
  if (delivery !== undefined) attributes["tidings.event.type"] = delivery.type;
  return attributes;
}

/** A job run's span (with one child per handler run) and its metrics. */
export function recordJob(recorder: Recorder, outcome: JobOutcome, parent: Context): void {
  const { code, delivery, startedAt, durationMs } = outcome;
  const { tracer, instruments } = recorder;
  const metricAttributes = commonAttributes(outcome);
  instruments.jobs.add(1, metricAttributes);
  instruments.jobDuration.record(durationMs / 1000, metricAttributes);

  const attributes = commonAttributes(outcome);
  attributes["tidings.job.attempt"] = outcome.attempt;
  if (delivery === undefined) {
    attributes["tidings.job.id"] = outcome.jobId;
  } else {
    attributes["tidings.secret_index"] = delivery.secretIndex;
    attributes["tidings.timestamp"] = delivery.timestamp;
    const key = recordableKey(delivery.deliveryKey);
    // Engines derive the job id from the delivery key: it holds the signature whenever the key does.
    if (key !== undefined) {
      attributes["tidings.delivery_key"] = key;
      attributes["tidings.job.id"] = outcome.jobId;
    }
  }
  const failed = code !== "completed";
  if (failed) attributes["error.type"] = code;
  const span = tracer.startSpan("tidings.job", { kind: SpanKind.INTERNAL, startTime: startedAt, attributes }, parent);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  recordHandlerRuns(recorder, outcome.handlers, delivery?.type, childContext(span, parent));
  span.end(startedAt + durationMs);
}
