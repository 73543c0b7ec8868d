/**
 * Virtual time for one simulated run: `setTimeout`, `clearTimeout` and `Date.now` are replaced while the run lasts,
 * so the Receiver's time limit, its done-mark retries, the order wait and every lease read the same clock, which moves
 * only when the schedule says so. A run is then a pure function of its seed.
 *
 * Timers count monotonic time (`now`); `Date.now()` is that plus the wall clock's jumps, as on a host whose clock is
 * stepped: a jump moves every store's expiry, never a pending timer.
 */
interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

/** What Node's `setTimeout` returns, enough for `clearTimeout` and the `unref()` core calls on its shared timers. */
class TimerHandle {
  constructor(
    readonly id: number,
    readonly clock: VirtualClock,
  ) {}
  unref(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  hasRef(): boolean {
    return false;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

export class VirtualClock {
  /** Monotonic ms: what timers count. */
  now: number;
  /** How far the wall clock has been stepped forward. */
  jumped = 0;
  readonly #timers = new Map<number, Timer>();
  #seq = 0;

  constructor(start: number) {
    this.now = start;
  }

  /** The wall clock: what `Date.now()`, the stores and signatures read. */
  readonly wallNow = (): number => this.now + this.jumped;

  get pending(): number {
    return this.#timers.size;
  }

  setTimeout(fire: () => void, ms = 0): TimerHandle {
    const id = ++this.#seq;
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    this.#timers.set(id, { at: this.now + delay, seq: id, fire });
    return new TimerHandle(id, this);
  }

  /**
   * Clears a timer of this clock. A handle from an earlier run's clock clears nothing: PGlite keeps the handle of its
   * interval timer across queries, and clearing by id would drop whatever timer of this run has that id.
   */
  clearTimeout(handle: unknown): void {
    if (handle instanceof TimerHandle) {
      if (handle.clock === this) this.#timers.delete(handle.id);
    } else if (typeof handle === "number") {
      this.#timers.delete(handle);
    }
  }

  /** Replaces the globals; the function returned puts them back. */
  install(): () => void {
    const saved = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: Date.now };
    globalThis.setTimeout = ((fire: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      this.setTimeout(() => fire(...args), ms)) as unknown as typeof setTimeout;
    globalThis.clearTimeout = ((handle: unknown) => this.clearTimeout(handle)) as typeof clearTimeout;
    Date.now = this.wallNow;
    return () => {
      globalThis.setTimeout = saved.setTimeout;
      globalThis.clearTimeout = saved.clearTimeout;
      Date.now = saved.now;
    };
  }

  /** The timer due first (ties in the order they were set), if any is due by `until`. */
  #next(until: number): [number, Timer] | undefined {
    let found: [number, Timer] | undefined;
    for (const entry of this.#timers) {
      const timer = entry[1];
      if (timer.at > until) continue;
      if (!found || timer.at < found[1].at || (timer.at === found[1].at && timer.seq < found[1].seq)) found = entry;
    }
    return found;
  }

  /**
   * Moves time on by `ms`, firing each timer at its time and letting everything it started settle before the next.
   * `passing` hears each stretch of time before it passes: a store that keeps time of its own follows it.
   */
  async advance(ms: number, settle: () => Promise<void>, passing?: (ms: number) => Promise<void>): Promise<void> {
    const target = this.now + ms;
    for (let next = this.#next(target); next; next = this.#next(target)) {
      const [id, timer] = next;
      this.#timers.delete(id);
      if (timer.at > this.now) {
        await passing?.(timer.at - this.now);
        this.now = timer.at;
      }
      timer.fire();
      await settle();
    }
    if (target > this.now) await passing?.(target - this.now);
    this.now = target;
  }

  /** When the next timer is due, if any. */
  nextAt(): number | undefined {
    return this.#next(Number.POSITIVE_INFINITY)?.[1].at;
  }
}
