import { type Attributes, type Context, type Link, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { JOB_OUTCOMES, type JobOutcome } from "@tidings/core/dispatch";
import { recordableKey } from "./attributes";
import { childContext, recordHandlerRuns } from "./handler-runs";
import { messagingAttributes, messagingSpanName } from "./messaging";
import type { Recorder } from "./telemetry";
import { fromJobTrace } from "./trace-context";

/** What both the metrics and the span of a job run carry (a new object per call: see `commonAttributes` of a delivery). */
function commonAttributes({ code, delivery }: JobOutcome): Attributes {
  const attributes: Attributes = { "tidings.outcome": code };
  if (delivery?.endpoint !== undefined) attributes["tidings.endpoint"] = delivery.endpoint;
  if (delivery !== undefined) attributes["tidings.event.type"] = delivery.type;
  return attributes;
}

/**
 * A job run's CONSUMER span (`process <queue>`, with one child per handler run) and its metrics. When the job carries
 * its enqueue's trace context, the span is that PRODUCER span's child, and links to it as messaging semantic
 * conventions ask of a process span, so the POST, the enqueue and every run of the job are one trace.
 */
export function recordJob(recorder: Recorder, outcome: JobOutcome, active: Context): void {
  const { code, delivery, startedAt, durationMs, system, queue } = outcome;
  const { tracer, instruments } = recorder;
  // With `order`, a stale, duplicate or deferred run is a normal outcome, not an error.
  const failed = JOB_OUTCOMES[code] === "fail";
  const metricAttributes = commonAttributes(outcome);
  instruments.jobs.add(1, metricAttributes);
  instruments.jobDuration.record(durationMs / 1000, metricAttributes);
  const processAttributes = messagingAttributes("process", system, queue);
  if (failed) processAttributes["error.type"] = code;
  instruments.processDuration.record(durationMs / 1000, processAttributes);

  const attributes = commonAttributes(outcome);
  Object.assign(attributes, messagingAttributes("process", system, queue));
  attributes["tidings.job.attempt"] = outcome.attempt;
  if (delivery === undefined) {
    attributes["messaging.message.id"] = outcome.jobId;
  } else {
    attributes["tidings.secret_index"] = delivery.secretIndex;
    attributes["tidings.timestamp"] = delivery.timestamp;
    const key = recordableKey(delivery.deliveryKey);
    // Engines derive the job id from the delivery key: it holds the signature whenever the key does.
    if (key !== undefined) {
      attributes["tidings.delivery_key"] = key;
      attributes["messaging.message.id"] = outcome.jobId;
    }
  }
  if (failed) attributes["error.type"] = code;
  const creation = outcome.trace && fromJobTrace(outcome.trace);
  const parent = creation ? trace.setSpanContext(active, creation) : active;
  const links: Link[] = creation ? [{ context: creation }] : [];
  const span = tracer.startSpan(
    messagingSpanName("process", queue),
    { kind: SpanKind.CONSUMER, startTime: startedAt, attributes, links },
    parent,
  );
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  recordHandlerRuns(recorder, outcome.handlers, delivery?.type, childContext(span, parent));
  span.end(startedAt + durationMs);
}
