import { type Attributes, context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { EnqueueHook } from "@tidings/core/dispatch";
import { errorType, recordableKey } from "./attributes";
import { exceptionOf } from "./handler-runs";
import { messagingAttributes, messagingSpanName } from "./messaging";
import type { Telemetry } from "./telemetry";
import { toJobTrace } from "./trace-context";

/**
 * A PRODUCER span per enqueue (`send <queue>`), a child of the context active then (the HTTP server span of the
 * request, under HTTP instrumentation), whose context the job carries to the worker; and the send's metrics.
 */
export function enqueueHook(telemetry: Telemetry): EnqueueHook {
  return ({ system, queue, jobId, delivery }) => {
    const recorder = telemetry.recorder();
    if (recorder === undefined) return undefined;
    const { tracer, instruments } = recorder;
    const attributes = messagingAttributes("send", system, queue);
    attributes["tidings.event.type"] = delivery.type;
    if (delivery.endpoint !== undefined) attributes["tidings.endpoint"] = delivery.endpoint;
    const key = recordableKey(delivery.deliveryKey);
    // The job id is made from the delivery key: it holds the signature whenever the key does.
    if (key !== undefined) {
      attributes["messaging.message.id"] = jobId;
      attributes["tidings.delivery_key"] = key;
    }
    const started = performance.now();
    const active = context.active();
    const span = tracer.startSpan(messagingSpanName("send", queue), { kind: SpanKind.PRODUCER, attributes }, active);
    const sending = trace.setSpan(active, span);
    return {
      trace: toJobTrace(span.spanContext()),
      // The engine client's own spans (pg-boss's, a Redis or pg instrumentation's) are children of this one.
      around: (write) => context.with(sending, write),
      end(...failure: [] | [unknown]) {
        const metricAttributes: Attributes = messagingAttributes("send", system, queue);
        if (failure.length > 0) {
          const [error] = failure;
          const type = errorType(error);
          metricAttributes["error.type"] = type;
          span.setAttribute("error.type", type);
          span.recordException(exceptionOf(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : type });
        }
        instruments.sendDuration.record((performance.now() - started) / 1000, metricAttributes);
        instruments.sentMessages.add(1, metricAttributes);
        span.end();
      },
    };
  };
}
