import { DEFAULT_BODY_RATE_GRACE_MS, DEFAULT_MIN_BODY_BYTES_PER_SECOND } from "./body/body-watch";
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from "./body/limits";
import {
  DEFAULT_DONE_TTL_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_CONCURRENT_DELIVERIES,
  DEFAULT_RESOLVER_TIMEOUT_MS,
} from "./receiver/options";
import { DEFAULT_ORDER_WAIT_MS } from "./receiver/order";
import { DEFAULT_MAX_ENTRIES } from "./store/memory-store";
import { DEFAULT_TOLERANCE_SECONDS } from "./verification/constants";

/**
 * What every option left out is: the Receiver's and `verify`'s. Each value is defined once, beside the code that
 * reads it; this object only gathers them for apps (a tighter limit than the default, say).
 *
 * @example
 * ```ts
 * import { createReceiver, DEFAULTS } from "@tidings/core";
 *
 * // Half the default body limit, the default lease.
 * const receiver = createReceiver({ secret: process.env.TIDINGS_SECRET!, maxBodyBytes: DEFAULTS.maxBodyBytes / 2 });
 * ```
 */
export const DEFAULTS = /* @__PURE__ */ Object.freeze({
  /** Seconds a signed timestamp may be off from now, either way. */
  toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
  /** Bytes of body, after decoding, read before answering 413. */
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  /** Milliseconds the body gets to arrive before 408. */
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  /** Bytes per second a body must average, once its grace is over, before 408 `body_too_slow`. */
  minBodyBytesPerSecond: DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  /** Milliseconds a body may arrive slower than that before its rate is checked. */
  bodyRateGraceMs: DEFAULT_BODY_RATE_GRACE_MS,
  /** How long a claim holds while the handlers run, before another instance may take the delivery over. */
  leaseMs: DEFAULT_LEASE_MS,
  /** How long a handled delivery is remembered as done (dedup). */
  doneTtlMs: DEFAULT_DONE_TTL_MS,
  /** How long the handlers get before 503 `handler_timeout` (capped at half of `leaseMs`). */
  handlerTimeoutMs: DEFAULT_HANDLER_TIMEOUT_MS,
  /** How long a secret resolver gets before 503 `secret_unavailable`. */
  resolverTimeoutMs: DEFAULT_RESOLVER_TIMEOUT_MS,
  /** Deliveries in flight at once before 503 `overloaded`. */
  maxConcurrentDeliveries: DEFAULT_MAX_CONCURRENT_DELIVERIES,
  /** With `order`: how long an event waits for its object's earlier event to settle before 409 `object_busy`. */
  orderWaitMs: DEFAULT_ORDER_WAIT_MS,
  /** Keys a `MemoryStore` holds before 503 `store_full`. */
  memoryStoreMaxEntries: DEFAULT_MAX_ENTRIES,
});
