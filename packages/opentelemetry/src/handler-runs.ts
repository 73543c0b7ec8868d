import {
  type Attributes,
  type Context,
  type Exception,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { DeliveryOutcome } from "@tidings/core";
import { errorType } from "./attributes";
import type { Recorder } from "./telemetry";

/** What `recordException` accepts, from anything a handler (or an engine) threw. */
export function exceptionOf(error: unknown): Exception {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && ("message" in error || "name" in error)) return error as Exception;
  return String(error);
}

/**
 * A span per handler run under `parent` (only when `parent` holds a recording span), and each run's duration. The
 * spans are made after the fact, from the run's timings: spans the handler itself opened are not their children.
 */
export function recordHandlerRuns(
  { tracer, instruments }: Recorder,
  runs: DeliveryOutcome["handlers"],
  eventType: string | undefined,
  parent: Context | undefined,
): void {
  const { handlerDuration } = instruments;
  for (const run of runs) {
    const attributes: Attributes = { "tidings.handler.name": run.name, "tidings.handler.on": run.on };
    if (eventType !== undefined) attributes["tidings.event.type"] = eventType;
    if (run.failed) attributes["error.type"] = errorType(run.error);
    handlerDuration.record(run.durationMs / 1000, attributes);
    if (parent === undefined) continue;
    const endTime = run.startedAt + run.durationMs;
    // The function's name is an attribute, not part of the span's name: span names stay few, whatever the app calls
    // its handlers.
    const span = tracer.startSpan(
      "tidings.handler",
      { kind: SpanKind.INTERNAL, startTime: run.startedAt, attributes },
      parent,
    );
    if (run.failed) {
      span.recordException(exceptionOf(run.error), endTime);
      const message = run.error instanceof Error ? run.error.message : undefined;
      span.setStatus(message === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message });
    }
    span.end(endTime);
  }
}

/** The context for children of `span`, or undefined when it records nothing (no SDK, or not sampled). */
export function childContext(span: Span, parent: Context): Context | undefined {
  return span.isRecording() ? trace.setSpan(parent, span) : undefined;
}
