import type { RequestTarget } from "../endpoint/request-target";
import type { OutcomeCode } from "../http/result";
import type { DeliveryInfo } from "./handlers";

/** One handler's run within a delivery or a job. */
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

/** What became of one delivery, once it was answered: for metrics and traces (`onOutcome`). */
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

/** Hears each delivery's outcome. May return a promise: a rejection is logged, never left unhandled. */
export type OutcomeListener<Outcome = DeliveryOutcome> = (outcome: Outcome) => unknown;

/** Unix ms with sub-millisecond precision, from the monotonic clock. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();
