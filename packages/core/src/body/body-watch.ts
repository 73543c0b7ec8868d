import { WebhookVerificationError } from "../errors";
import { type Deadline, startSharedDeadline } from "../shared-deadline";
import { type BodyLimits, bodyTimedOut, DEFAULT_BODY_TIMEOUT_MS } from "./limits";

/** Default slowest average a body may arrive at once its grace is over: Kestrel's `MinRequestBodyDataRate`. */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 240;

/** Default time a body may arrive slower than `minBodyBytesPerSecond` before the rate is checked. */
export const DEFAULT_BODY_RATE_GRACE_MS = 5000;

/**
 * Where a Receiver keeps the bodies it is reading, so that a delivery arriving when every slot is taken can take the
 * slot of one that arrives too slowly. Carried by the Receiver's `bodyLimits` under a symbol: spreading the limits into
 * a reader's options keeps it, and nothing in the public types shows it.
 */
export interface ReadingBodies {
  add(watch: BodyWatch): void;
  remove(watch: BodyWatch): void;
  /** When a read begins: `performance.now()` if its start may matter, else -1 (see `Admission`). */
  startOf(): number;
}

export const READING_BODIES: unique symbol = Symbol("tidings.readingBodies");

type WatchedLimits = BodyLimits & { [READING_BODIES]?: ReadingBodies };

/** Starts a deadline: the shared wheel for Node's streams, a timer of its own for Web streams. */
export type StartDeadline = (timeoutMs: number, expire: () => void) => Deadline;

export function startOwnTimer(timeoutMs: number, expire: () => void): Deadline {
  const timer = setTimeout(expire, timeoutMs);
  return { clear: () => clearTimeout(timer) };
}

export function bodyTooSlow(minBytesPerSecond: number, when: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_too_slow",
    `The body arrived slower than ${minBytesPerSecond} bytes/s ${when} (minBodyBytesPerSecond in createReceiver()).`,
  );
}

/**
 * The time limits of one body read, on one deadline at a time: the whole body within `bodyTimeoutMs`, and, once
 * `bodyRateGraceMs` passed, at least `minBodyBytesPerSecond` on average since the read began, checked every grace
 * period. The reader adds what arrives to `received` (or gives `measure`, for bytes it cannot see arrive) and
 * clears the watch when the read ends; `cut` fails the read.
 */
export class BodyWatch implements Deadline {
  /** Bytes of body received so far. */
  received = 0;
  /** When the read began, on `performance.now()`, for a Receiver's reads while its slots run short; else -1. */
  readonly startedAt: number;
  /** Where this read is in its Receiver's list of reading bodies (maintained by that list). */
  index = -1;
  #deadline: Deadline;
  #elapsedMs = 0;
  readonly #reading: ReadingBodies | undefined;

  constructor(
    private readonly limits: WatchedLimits,
    readonly cut: (error: WebhookVerificationError) => void,
    private readonly start: StartDeadline = startSharedDeadline,
    readonly measure?: () => number,
  ) {
    this.#reading = limits[READING_BODIES];
    this.startedAt = this.#reading ? this.#reading.startOf() : -1;
    this.#reading?.add(this);
    this.#deadline = this.#arm();
  }

  get minBytesPerSecond(): number {
    return this.limits.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND;
  }

  /** Bytes received so far, as the reader counts or measures them. */
  progress(): number {
    return this.measure ? this.measure() : this.received;
  }

  /** The read ended (or failed): no check will run. Safe to call more than once. */
  clear(): void {
    this.#deadline.clear();
    this.#reading?.remove(this);
  }

  /** Fails the read with `error` now (its Receiver gives its slot to another delivery). */
  stop(error: WebhookVerificationError): void {
    this.clear();
    this.cut(error);
  }

  #arm(): Deadline {
    const timeoutMs = this.limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    const rate = this.minBytesPerSecond;
    const remainingMs = timeoutMs - this.#elapsedMs;
    const graceMs = this.limits.bodyRateGraceMs ?? DEFAULT_BODY_RATE_GRACE_MS;
    const stepMs = rate > 0 && graceMs < remainingMs ? graceMs : remainingMs;
    return this.start(stepMs, () => this.#check(stepMs));
  }

  #check(stepMs: number): void {
    this.#elapsedMs += stepMs;
    const timeoutMs = this.limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    // The deadline fires no earlier than its time: at least this long has passed.
    const rate = this.minBytesPerSecond;
    if (this.#elapsedMs >= timeoutMs) this.stop(bodyTimedOut(timeoutMs));
    else if (this.progress() < (rate * this.#elapsedMs) / 1000) {
      this.stop(bodyTooSlow(rate, `over its first ${this.#elapsedMs} ms`));
    } else this.#deadline = this.#arm();
  }
}
