import { createTraceState, isSpanContextValid, type SpanContext, TraceFlags } from "@opentelemetry/api";
import type { JobTraceContext } from "@tidings/core/dispatch";

/** A span's context as W3C Trace Context header values, for a job to carry; undefined for an invalid one (no SDK). */
export function toJobTrace(spanContext: SpanContext): JobTraceContext | undefined {
  if (!isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
  const trace: JobTraceContext = { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}` };
  const tracestate = spanContext.traceState?.serialize();
  if (tracestate) trace.tracestate = tracestate;
  return trace;
}

/** The remote span context a job carried (core checked its form); undefined when it names no valid span. */
export function fromJobTrace({ traceparent, tracestate }: JobTraceContext): SpanContext | undefined {
  const [, traceId = "", spanId = "", flags = "00"] = traceparent.split("-");
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  if (tracestate !== undefined) spanContext.traceState = createTraceState(tracestate);
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}
