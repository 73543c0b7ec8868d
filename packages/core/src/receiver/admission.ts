import { type BodyWatch, bodyTooSlow, type ReadingBodies } from "../body/body-watch";

/**
 * A delivery slot taken before the framework reads the body (Fastify's `onRequest`), for `receiver.handle` to use
 * instead of taking one: `handle` returns it when the delivery is answered; an adapter also returns it on every path
 * that never reaches `handle` (the client went away, a hook answered first). Returning it twice returns it once.
 *
 * @example
 * ```ts
 * import type { DeliverySlot, IncomingRequest } from "@tidings/core/adapter";
 * import { createReceiver } from "@tidings/core";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // Taken when the request's head arrives; the bytes come later, from the framework's own reader.
 * export function deliver(slot: DeliverySlot, request: Omit<IncomingRequest, "slot">) {
 *   return receiver.handle({ ...request, slot }); // 503 overloaded if the slot was not admitted
 * }
 * export const takeSlot = (): DeliverySlot => receiver.admit();
 * ```
 */
export interface DeliverySlot {
  /** False: every slot was taken; `handle` answers 503 `overloaded` without reading the body. */
  readonly admitted: boolean;
  /** Gives the slot back. A function of its own, so it can be passed as a callback. */
  readonly release: () => void;
}

class Slot implements DeliverySlot {
  #held: boolean;

  constructor(
    private readonly admission: Admission,
    readonly admitted: boolean,
  ) {
    this.#held = admitted;
  }

  readonly release = (): void => {
    if (!this.#held) return;
    this.#held = false;
    this.admission.release();
  };
}

/**
 * `maxConcurrentDeliveries`: how many deliveries are between the start of their body's read and their answer. When
 * every slot is taken, the body furthest behind `minBodyBytesPerSecond` since its read began (grace or not) is cut
 * with 408 `body_too_slow` and its slot goes to the new delivery: slow uploads, which cost a sender nothing, cannot
 * keep signed deliveries out. A delivery whose body is in, or arrives at the rate, is never cut for another.
 */
export class Admission implements ReadingBodies {
  #inFlight = 0;
  /**
   * When the slots in use last reached half of them, or -1 while fewer are. Reads begun below half are not timed (a
   * clock read per request for the rare case of a full house): they began before this, which bounds their age.
   */
  #shortSince = -1;
  readonly #reading: BodyWatch[] = [];

  constructor(private readonly max: number) {}

  /** Takes a slot: false when all are taken by deliveries that keep up. */
  take(): boolean {
    if (this.#inFlight >= this.max && !this.#cutSlowest()) return false;
    if (++this.#inFlight * 2 >= this.max && this.#shortSince < 0) this.#shortSince = performance.now();
    return true;
  }

  /** A slot object, for adapters that admit before the framework reads the body. */
  slot(): DeliverySlot {
    return new Slot(this, this.take());
  }

  release(): void {
    if (--this.#inFlight * 2 < this.max) this.#shortSince = -1;
  }

  startOf(): number {
    return this.#shortSince < 0 ? -1 : performance.now();
  }

  add(watch: BodyWatch): void {
    watch.index = this.#reading.length;
    this.#reading.push(watch);
  }

  remove(watch: BodyWatch): void {
    const reading = this.#reading;
    if (reading[watch.index] !== watch) return;
    const last = reading.pop() as BodyWatch;
    if (last !== watch) {
      reading[watch.index] = last;
      last.index = watch.index;
    }
    watch.index = -1;
  }

  /**
   * Cuts the read furthest behind its rate, if any is behind by a byte or more. Its slot comes back when its
   * delivery is answered, a few turns later; its bytes are dropped now.
   */
  #cutSlowest(): boolean {
    const now = performance.now();
    let slowest: BodyWatch | undefined;
    let furthest = 1;
    for (const watch of this.#reading) {
      const rate = watch.minBytesPerSecond;
      if (rate === 0) continue;
      const startedAt = watch.startedAt < 0 ? this.#shortSince : watch.startedAt;
      const behind = (rate * (now - startedAt)) / 1000 - watch.progress();
      if (behind >= furthest) {
        furthest = behind;
        slowest = watch;
      }
    }
    if (!slowest) return false;
    slowest.stop(
      bodyTooSlow(slowest.minBytesPerSecond, "while every delivery slot was taken (maxConcurrentDeliveries)"),
    );
    return true;
  }
}
