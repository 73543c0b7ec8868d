import type { Attributes, HrTime } from "@opentelemetry/api";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

/** The real OpenTelemetry SDK, exporting spans and metrics to memory. */
export class RecordingSdk {
  readonly #spans = new InMemorySpanExporter();
  readonly #metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed: the interval never comes within a test.
  readonly #reader = new PeriodicExportingMetricReader({ exporter: this.#metrics, exportIntervalMillis: 3_600_000 });
  readonly tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: this.#spans })],
  });
  readonly meterProvider = new MeterProvider({ readers: [this.#reader] });

  get options() {
    return { tracerProvider: this.tracerProvider, meterProvider: this.meterProvider };
  }

  spans(): ReadableSpan[] {
    return this.#spans.getFinishedSpans();
  }

  spanNamed(name: string): ReadableSpan[] {
    return this.spans().filter((span) => span.name === name);
  }

  /** The children of `parent`, in the order they ended. */
  childrenOf(parent: ReadableSpan): ReadableSpan[] {
    return this.spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
  }

  /** Every metric, as last exported after a flush (cumulative since the start). */
  async metrics(): Promise<Map<string, MetricData>> {
    this.#metrics.reset();
    await this.#reader.forceFlush();
    const found = new Map<string, MetricData>();
    for (const resource of this.#metrics.getMetrics()) {
      for (const scope of resource.scopeMetrics) {
        for (const metric of scope.metrics) found.set(metric.descriptor.name, metric);
      }
    }
    return found;
  }

  /** A counter's data points. */
  async counter(name: string): Promise<{ attributes: Attributes; value: number }[]> {
    return (await this.#points<number>(name)).map(({ attributes, value }) => ({ attributes, value }));
  }

  /** A histogram's data points: how many values, and their sum. */
  async histogram(name: string): Promise<{ attributes: Attributes; count: number; sum: number }[]> {
    return (await this.#points<Histogram>(name)).map(({ attributes, value }) => ({
      attributes,
      count: value.count,
      sum: value.sum ?? Number.NaN,
    }));
  }

  async #points<Value>(name: string): Promise<DataPoint<Value>[]> {
    return ((await this.metrics()).get(name)?.dataPoints ?? []) as DataPoint<Value>[];
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider.shutdown(), this.meterProvider.shutdown()]);
  }
}

export const seconds = ([whole, nanos]: HrTime) => whole + nanos / 1e9;
