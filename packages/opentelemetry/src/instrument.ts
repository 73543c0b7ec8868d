import { context } from "@opentelemetry/api";
import type { DeliveryOutcome } from "@tidings/core";
import type { JobOutcome } from "@tidings/core/dispatch";
import { recordDelivery } from "./delivery";
import { recordJob } from "./job";
import { type InstrumentOptions, Telemetry } from "./telemetry";

/** A Receiver (`createReceiver`) or a queue worker (`createWorker` of `@tidings/bullmq`, `@tidings/pg-boss`). */
export type Instrumentable =
  | { onOutcome(listener: (outcome: DeliveryOutcome) => unknown): unknown }
  | { onOutcome(listener: (outcome: JobOutcome) => unknown): unknown };

/**
 * Records a span and metrics for every delivery a Receiver answers, or for every job run of a queue worker, with a
 * child span per handler run. The spans' parent is the context active when the outcome is emitted: the HTTP server
 * span of the request, when HTTP instrumentation is on.
 */
export function instrument(target: Instrumentable, options: InstrumentOptions = {}): void {
  const telemetry = new Telemetry(options);
  target.onOutcome((outcome: DeliveryOutcome | JobOutcome) => {
    const recorder = telemetry.recorder();
    if (recorder === undefined) return;
    if ("jobId" in outcome) recordJob(recorder, outcome, context.active());
    else recordDelivery(recorder, outcome, context.active());
  });
}
