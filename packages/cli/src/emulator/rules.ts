import type { Channel } from "../events";

/**
 * The emulator accepts only test-mode keys: this prefix and at least one more character. The sender's contract
 * (docs/sender-contract.md) says test keys start with a fixed prefix ending in `_test_` but not which; `sk_test_` is
 * our choice.
 *
 * @example
 * ```ts
 * import { TEST_KEY_PREFIX } from "@tidings/cli";
 *
 * // Any key with the prefix and one more character is accepted.
 * const headers = { authorization: `Bearer ${TEST_KEY_PREFIX}local` };
 * ```
 */
export const TEST_KEY_PREFIX = "sk_test_";

/**
 * Recipients whose messages end with `message.failed` instead of `message.delivered`. Our choice, one per channel.
 *
 * @example
 * ```ts
 * import { FAILING_RECIPIENTS, startEmulator } from "@tidings/cli";
 *
 * const emulator = await startEmulator({ webhookUrl: "http://127.0.0.1:3000/webhooks", secret: "whsec_local_test" });
 * // This message's events end with message.failed: test your receiver's failure path.
 * await fetch(`${emulator.url}/v3/messages`, {
 *   method: "POST",
 *   headers: { authorization: "Bearer sk_test_local" },
 *   body: new URLSearchParams({ channel: "email", to: FAILING_RECIPIENTS.email, body: "Welcome" }),
 * });
 * ```
 */
export const FAILING_RECIPIENTS = {
  sms: "+15005550001",
  email: "fail@example.com",
  push: "fail_token",
} as const satisfies Readonly<Record<Channel, string>>;

export const CHANNELS = ["sms", "email", "push"] as const satisfies readonly Channel[];

/**
 * How often the emulator attempts an event, and how long it waits between attempts.
 *
 * @example
 * ```ts
 * import { type RetryPolicy, startEmulator } from "@tidings/cli";
 *
 * // No retries: a receiver that fails an attempt shows it at once.
 * const retry: RetryPolicy = { attempts: 1, baseDelayMs: 0, factor: 1 };
 * await startEmulator({ webhookUrl: "http://127.0.0.1:3000/webhooks", secret: "whsec_local_test", retry });
 * ```
 */
export interface RetryPolicy {
  /** Attempts per event, the first included (1 = no retry). */
  attempts: number;
  /** Wait after the first failed attempt, in ms. */
  baseDelayMs: number;
  /** Each further wait is the previous one times this. */
  factor: number;
}

/**
 * Small, for local use: waits of 250, 500, 1000, 2000 ms; an event is abandoned after about 4 s.
 *
 * @example
 * ```ts
 * import { DEFAULT_RETRY, startEmulator } from "@tidings/cli";
 *
 * // Twice the default attempts, the same waits.
 * const retry = { ...DEFAULT_RETRY, attempts: DEFAULT_RETRY.attempts * 2 };
 * await startEmulator({ webhookUrl: "http://127.0.0.1:3000/webhooks", secret: "whsec_local_test", retry });
 * ```
 */
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
