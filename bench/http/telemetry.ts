import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import type { Receiver } from "@tidings/core";
import { instrument } from "@tidings/opentelemetry";
import type { AdapterRoute } from "./routes";

type ResultCallback = Parameters<SpanExporter["export"]>[1];

// 0 is ExportResultCode.SUCCESS.
const exported = (done: ResultCallback) => done({ code: 0 });

/** Takes every batch and drops it: the SDK's work per request is measured, the network's is not. */
const droppingSpans: SpanExporter = { export: (_spans, done) => exported(done), shutdown: async () => {} };
const droppingMetrics: PushMetricExporter = {
  export: (_metrics, done) => exported(done),
  forceFlush: async () => {},
  shutdown: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

/** The real SDK, as an app sets it up: spans batched, metrics aggregated for a reader that exports once a minute. */
function sdkProviders() {
  return {
    tracerProvider: new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: droppingSpans })] }),
    meterProvider: new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: droppingMetrics, exportIntervalMillis: 60_000 })],
    }),
  };
}

/**
 * Instruments the receivers of the outcome routes: `adapterOnOutcome` with a listener that does nothing (the hook's own
 * cost), `adapterOtelApi` with `@opentelemetry/api` alone (nothing registered, so its no-op providers),
 * `adapterOtelSdk` with the real SDK. Each is measured against `adapter`.
 */
export function instrumentRoute(route: AdapterRoute, receiver: Receiver): void {
  if (route === "adapterOnOutcome") receiver.onOutcome(() => {});
  else if (route === "adapterOtelApi") instrument(receiver);
  else if (route === "adapterOtelSdk") instrument(receiver, sdkProviders());
}
