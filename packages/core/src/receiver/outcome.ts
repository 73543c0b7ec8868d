import type { RequestTarget } from "../endpoint/request-target";
import type { OutcomeCode } from "../http/result";
import type { DeliveryInfo } from "./handlers";

/**
 * One handler's run within a delivery or a job.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { HandlerRun } from "@tidings/core/dispatch";
 *
 * function reportFailures(runs: readonly HandlerRun[]) {
 *   for (const run of runs.filter((run) => run.failed)) {
 *     console.error(`handler ${run.name} (on ${run.on}) failed after ${run.durationMs.toFixed(1)} ms`, run.error);
 *   }
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onOutcome((outcome) =>
 *   reportFailures(outcome.handlers),
 * );
 * ```
 */
export interface HandlerRun {
  /** The handler function's name; "anonymous" for an arrow function assigned nowhere. */
  name: string;
  /** The event type it was registered for with `on`, or "*" for an `onAny` handler. */
  on: string;
  /** Unix ms, with sub-millisecond precision. */
  startedAt: number;
  durationMs: number;
  failed: boolean;
  /** What it threw or rejected with, when it failed. */
  error?: unknown;
}

/**
 * What became of one delivery, once it was answered: for metrics and traces (`onOutcome`).
 *
 * @example
 * ```ts
 * import { createReceiver, type DeliveryOutcome } from "@tidings/core";
 *
 * function record(outcome: DeliveryOutcome) {
 *   const where = outcome.target?.route ?? outcome.target?.path;
 *   console.log(`${outcome.status} ${outcome.code} ${where} ${outcome.delivery?.type} in ${outcome.durationMs} ms`);
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onOutcome(record);
 * ```
 */
export interface DeliveryOutcome {
  code: OutcomeCode;
  status: number;
  method: string | undefined;
  /** Where it was sent, when the adapter knows (every adapter of ours does). */
  target: RequestTarget | undefined;
  /** The endpoint label the secret resolver gave, if any. */
  endpoint: string | undefined;
  /** Set once the delivery verified: its type, dedup key, signed timestamp and which secret matched. */
  delivery: DeliveryInfo | undefined;
  /** Unix ms when the Receiver took the request, with sub-millisecond precision. */
  startedAt: number;
  durationMs: number;
  /** The handlers that settled before the answer, in the order they ran. */
  handlers: readonly HandlerRun[];
  /**
   * Set on a `signature_mismatch` whose signature a secret past its `notAfter` made, inside the time window: that
   * secret's place in the configured list (as `delivery.secretIndex` counts). The sender still signs with a retired
   * secret, or someone else holds it. It was answered exactly as a wrong signature is. Undefined otherwise.
   */
  retiredSecretIndex?: number | undefined;
}

/**
 * Hears each delivery's outcome. May return a promise: a rejection is logged, never left unhandled.
 *
 * @example
 * ```ts
 * import { createReceiver, type OutcomeListener } from "@tidings/core";
 *
 * const answered = new Map<string, number>(); // outcome code → count, for a metrics endpoint
 *
 * const count: OutcomeListener = ({ code }) => answered.set(code, (answered.get(code) ?? 0) + 1);
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onOutcome(count);
 * ```
 */
export type OutcomeListener<Outcome = DeliveryOutcome> = (outcome: Outcome) => unknown;

/** Unix ms with sub-millisecond precision, from the monotonic clock. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();
