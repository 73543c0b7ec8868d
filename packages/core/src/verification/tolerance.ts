import { WebhookVerificationError } from "../errors";
import { DEFAULT_TOLERANCE_SECONDS } from "./constants";
import type { SignedRequest } from "./signed-request";

/**
 * The time window of `verify` and its kin: how far a signed timestamp may be from now, and what now is.
 *
 * @example
 * ```ts
 * import { sign, verify, type VerifyOptions } from "@tidings/core";
 *
 * // In a test: a fixed clock and a one-minute window.
 * const options: VerifyOptions = { toleranceSeconds: 60, now: () => Date.parse("2026-01-01T00:00:00Z") };
 *
 * const header = sign("{}", "whsec_test", { timestamp: Date.parse("2026-01-01T00:00:00Z") / 1000 - 10 });
 * verify("{}", header, "whsec_test", options); // signed 10 s before now: within the window
 * ```
 */
export interface VerifyOptions {
  /** Accepted clock difference with the sender, in seconds, both ways. Default 300 (the service's limit). */
  toleranceSeconds?: number;
  /** Current time in milliseconds; inject it in tests. Default `Date.now`. */
  now?: () => number;
  /** The request's method and URL, for a scheme that signs them (Twilio, Square); the Receiver passes its own. */
  request?: SignedRequest | undefined;
}

export function resolveTolerance(options: VerifyOptions | undefined): number {
  const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError("toleranceSeconds must be a finite number ≥ 0");
  }
  return tolerance;
}

export function currentSeconds(options: VerifyOptions | undefined): number {
  const nowMs = (options?.now ?? Date.now)();
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) {
    throw new TypeError("now() must return milliseconds");
  }
  return Math.floor(nowMs / 1000);
}

/** Rejects a signed timestamp outside now ± tolerance. Call only after the signature held. */
export function assertWithinTolerance(
  timestamp: number,
  toleranceSeconds: number,
  options: VerifyOptions | undefined,
): void {
  const now = currentSeconds(options);
  if (timestamp < now - toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `Signed ${now - timestamp} s ago, past the ${toleranceSeconds} s tolerance: replayed, or a clock is off.`,
    );
  }
  if (timestamp > now + toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_in_future",
      `Signed ${timestamp - now} s ahead, past the ${toleranceSeconds} s tolerance: check the clocks.`,
    );
  }
}
