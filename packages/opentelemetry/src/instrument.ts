import { context } from "@opentelemetry/api";
import type { DeliveryOutcome } from "@tidings/core";
import type { EnqueueHook, JobOutcome } from "@tidings/core/dispatch";
import { recordDelivery } from "./delivery";
import { recordJob } from "./job";
import { enqueueHook } from "./producer";
import { type InstrumentOptions, Telemetry } from "./telemetry";

/**
 * A Receiver (`createReceiver`), a queue worker (`createWorker`) or an enqueuer (`enqueueTo`) of `@tidings/bullmq` or
 * `@tidings/pg-boss`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type Instrumentable, instrument } from "@tidings/opentelemetry";
 *
 * // Turns telemetry on for whatever the app builds, when its configuration asks for it.
 * function observed<Target extends Instrumentable>(target: Target): Target {
 *   if (process.env.OTEL_SDK_DISABLED !== "true") instrument(target);
 *   return target;
 * }
 *
 * export const receiver = observed(createReceiver({ secret: process.env.WEBHOOK_SECRET! }));
 * ```
 */
export type Instrumentable =
  | { onOutcome(listener: (outcome: DeliveryOutcome) => unknown): unknown }
  | { onOutcome(listener: (outcome: JobOutcome) => unknown): unknown }
  | { onEnqueue(hook: EnqueueHook): unknown };

/**
 * Records a span and metrics for every delivery a Receiver answers, every enqueue of an enqueuer (whose trace context
 * the job then carries) or every job run of a queue worker, with a child span per handler run. A delivery's and an
 * enqueue's parent is the context active then: the HTTP server span of the request, when HTTP instrumentation is on;
 * a job run's is the enqueue's span.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { webhookMiddleware } from "@tidings/express";
 * import { instrument } from "@tidings/opentelemetry";
 * import express from "express";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", function markDelivered(event) {
 *   console.log(`${event.data.id} delivered`); // a child span named after the handler
 * });
 * instrument(receiver); // the global providers, whenever an SDK registers them: before or after it starts
 *
 * express().post("/webhooks", webhookMiddleware(receiver)).listen(3000);
 * ```
 */
export function instrument(target: Instrumentable, options: InstrumentOptions = {}): void {
  const telemetry = new Telemetry(options);
  if ("onEnqueue" in target) {
    target.onEnqueue(enqueueHook(telemetry));
    return;
  }
  target.onOutcome((outcome: DeliveryOutcome | JobOutcome) => {
    const recorder = telemetry.recorder();
    if (recorder === undefined) return;
    if ("jobId" in outcome) recordJob(recorder, outcome, context.active());
    else recordDelivery(recorder, outcome, context.active());
  });
}
