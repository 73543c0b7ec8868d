import type { Channel } from "@tidings/core";

/**
 * The emulator accepts only test-mode keys: this prefix and at least one more character. The sender's contract
 * (docs/sender-contract.md) says test keys start with a fixed prefix ending in `_test_` but not which; `sk_test_` is
 * our choice.
 */
export const TEST_KEY_PREFIX = "sk_test_";

/** Recipients whose messages end with `message.failed` instead of `message.delivered`. Our choice, one per channel. */
export const FAILING_RECIPIENTS = {
  sms: "+15005550001",
  email: "fail@example.com",
  push: "fail_token",
} as const satisfies Readonly<Record<Channel, string>>;

export const CHANNELS = ["sms", "email", "push"] as const satisfies readonly Channel[];

export interface RetryPolicy {
  /** Attempts per event, the first included (1 = no retry). */
  attempts: number;
  /** Wait after the first failed attempt, in ms. */
  baseDelayMs: number;
  /** Each further wait is the previous one times this. */
  factor: number;
}

/** Small, for local use: waits of 250, 500, 1000, 2000 ms; an event is abandoned after about 4 s. */
export const DEFAULT_RETRY: Readonly<RetryPolicy> = { attempts: 5, baseDelayMs: 250, factor: 2 };

/** One delivery attempt is abandoned (and counts as failed) after this long. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000;

/** Larger request bodies are refused with 413 (the sender's contract sets no limit; this one keeps the emulator safe). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** How long an idempotency key is remembered, and how many keys at most (oldest dropped first). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_MAX_KEYS = 10_000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Delay before the attempt after attempt `attempt` (1-based) failed. */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return Math.round(policy.baseDelayMs * policy.factor ** (attempt - 1));
}
