import {
  type Counter,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { name, version } from "../package.json";

/**
 * Where `instrument` sends spans and metrics, when not to the global providers.
 *
 * @example
 * ```ts
 * import {
 *   AggregationTemporality,
 *   InMemoryMetricExporter,
 *   MeterProvider,
 *   PeriodicExportingMetricReader,
 * } from "@opentelemetry/sdk-metrics";
 * import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
 * import { createReceiver } from "@tidings/core";
 * import { type InstrumentOptions, instrument } from "@tidings/opentelemetry";
 *
 * // In a test: the receiver's spans and metrics go to providers of the test's own, not the global ones.
 * const spans = new InMemorySpanExporter();
 * const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
 * const options: InstrumentOptions = {
 *   tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }),
 *   meterProvider: new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: metrics })] }),
 * };
 * instrument(createReceiver({ secret: "whsec_test" }), options);
 * ```
 */
export interface InstrumentOptions {
  /** Where spans go. Default: the global tracer provider (`trace.getTracerProvider()`), whenever one is registered. */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider (`metrics.getMeterProvider()`), whenever one is registered. */
  meterProvider?: MeterProvider;
}

/** The metric instruments, made from one meter. */
export interface Instruments {
  deliveries: Counter;
  deliveryDuration: Histogram;
  handlerDuration: Histogram;
  clockSkew: Histogram;
  jobs: Counter;
  jobDuration: Histogram;
  /** `messaging.client.operation.duration` of messaging semantic conventions: each enqueue's write. */
  sendDuration: Histogram;
  /** `messaging.client.sent.messages`: jobs written (or refused, with `error.type`). */
  sentMessages: Counter;
  /** `messaging.process.duration`: each run of a job. */
  processDuration: Histogram;
}

/** What OpenTelemetry's HTTP semantic conventions advise for `http.server.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Up to the default tolerance (300 s), past which a delivery is refused as `timestamp_too_old`. */
const SKEW_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 180, 240, 300];

function duration(meter: Meter, metric: string, description: string): Histogram {
  return meter.createHistogram(metric, {
    description,
    unit: "s",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
}

function instrumentsOf(meter: Meter): Instruments {
  return {
    deliveries: meter.createCounter("tidings.deliveries", {
      description: "Deliveries answered, by outcome.",
      unit: "{delivery}",
    }),
    deliveryDuration: duration(meter, "tidings.delivery.duration", "From taking a delivery to answering it."),
    handlerDuration: duration(meter, "tidings.handler.duration", "One handler's run, in a request or a job."),
    clockSkew: meter.createHistogram("tidings.clock_skew", {
      description:
        "How far an accepted delivery's signed timestamp is from this clock when it arrived (direction: past or future).",
      unit: "s",
      advice: { explicitBucketBoundaries: SKEW_BUCKETS },
    }),
    jobs: meter.createCounter("tidings.jobs", { description: "Runs of queued deliveries, by outcome.", unit: "{run}" }),
    jobDuration: duration(meter, "tidings.job.duration", "One run of a queued delivery."),
    sendDuration: duration(
      meter,
      "messaging.client.operation.duration",
      "Duration of a messaging operation initiated by a producer or consumer client.",
    ),
    sentMessages: meter.createCounter("messaging.client.sent.messages", {
      description: "Number of messages producer attempted to send to the broker.",
      unit: "{message}",
    }),
    processDuration: duration(meter, "messaging.process.duration", "Duration of processing operation."),
  };
}

/** What one outcome is recorded with. */
export interface Recorder {
  tracer: Tracer;
  instruments: Instruments;
}

/** What the global tracer provider hands out until an SDK registers one: the API's no-op. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** The tracer and instruments one `instrument` call records with. */
export class Telemetry {
  readonly #tracer: Tracer;
  /** The global tracer provider, when spans go there. */
  readonly #globalTracerProvider: ProxyTracerProvider | undefined;
  readonly #meterProvider: MeterProvider | undefined;
  #recorder: Recorder | undefined;
  #instrumentsFrom: MeterProvider | undefined;
  #metricsIdle = false;

  constructor(options: InstrumentOptions) {
    const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
    if (tracerProvider instanceof ProxyTracerProvider) this.#globalTracerProvider = tracerProvider;
    // The global tracer provider is a proxy: a tracer taken before the SDK registers itself delegates to it later.
    this.#tracer = tracerProvider.getTracer(name, version);
    this.#meterProvider = options.meterProvider;
  }

  /**
   * The tracer and the instruments, made again when the global meter provider changed: the metrics API has no proxy,
   * so instruments taken before an SDK registered itself would stay no-ops. Undefined while both signals would go to
   * the API's no-ops (no SDK registered), so that instrumenting costs next to nothing until one is.
   */
  recorder(): Recorder | undefined {
    const provider = this.#meterProvider ?? metrics.getMeterProvider();
    if (this.#recorder === undefined || provider !== this.#instrumentsFrom) {
      this.#instrumentsFrom = provider;
      const meter = provider.getMeter(name, version);
      this.#metricsIdle = meter === createNoopMeter();
      this.#recorder = { tracer: this.#tracer, instruments: instrumentsOf(meter) };
    }
    const tracingIdle = this.#globalTracerProvider?.getDelegate() === NOOP_TRACER_PROVIDER;
    return this.#metricsIdle && tracingIdle ? undefined : this.#recorder;
  }
}
