import { positiveInteger } from "../positive-integer";
import { type Logger, type SafeLogger, safeLogger } from "../receiver/logger";
import type { ClaimResult, DeliveryStore, ObjectPosition, OrderedClaimResult } from "./delivery-store";

/**
 * What a `MemoryStore` takes: how many keys it holds, how long done keys are kept from eviction, its clock and logger.
 *
 * @example
 * ```ts
 * import { MemoryStore, type MemoryStoreOptions } from "@tidings/core";
 *
 * // In a test: a small store on a clock the test moves.
 * let now = Date.parse("2026-01-01T00:00:00Z");
 * const options: MemoryStoreOptions = { maxEntries: 1000, now: () => now };
 * const store = new MemoryStore(options);
 *
 * const claim = store.claim("event:evt_1", 60_000);
 * now += 61_000; // past the lease: the key can be claimed again
 * console.log(claim, store.claim("event:evt_1", 60_000));
 * ```
 */
export interface MemoryStoreOptions {
  /**
   * Most keys kept. Past it, done keys older than `minRetentionMs` are evicted, oldest first; when every key is a
   * claim in flight or younger than that, new claims are refused (the Receiver answers 503 `store_full`).
   * Default 100,000: one tolerance window of 300 s at 330 deliveries/s. With `order`, also the most objects kept: an
   * object's handled position is never evicted before its TTL (`doneTtlMs`) runs out, since a late older event would
   * then run; when every object is held that way, events of new objects are refused with `store_full` too.
   */
  maxEntries?: number;
  /**
   * How long a done key is protected from eviction, in ms: a replay stays possible for the tolerance, so this must
   * be at least the Receiver's tolerance. Default 300,000 (the Receiver sets it to its tolerance for its own store).
   */
  minRetentionMs?: number;
  /** Current time in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Hears one warning each time the store fills up. Default `console`. */
  logger?: Logger;
}

export const DEFAULT_MAX_ENTRIES = 100_000;

/** A claim refused because the store is full of keys it must not evict. */
export class MemoryStoreFullError extends Error {
  override readonly name = "MemoryStoreFullError";
  readonly code = "store_full";
}

/** A key being handled: who holds it, and until when (ms after the store's epoch). */
interface Claim {
  token: string;
  until: number;
}

/** An ordered object: its handled position (kept until `until`), and the lease of the event in its handlers. */
interface OrderedObject {
  position: number;
  until: number;
  advancedAt: number;
  lease: string | undefined;
  leaseUntil: number;
}

function endLease(object: OrderedObject): void {
  object.lease = undefined;
  object.leaseUntil = 0;
}

const STALE: OrderedClaimResult = { state: "stale" };
const BUSY: OrderedClaimResult = { state: "busy" };

/**
 * An in-process, bounded DeliveryStore: dedup for a single-instance receiver. It never evicts a claim in flight or a
 * done key that a replay could still match; when full of those, it refuses new claims rather than forget one.
 *
 * @example
 * ```ts
 * import { createReceiver, MemoryStore } from "@tidings/core";
 *
 * // One instance at up to 1,600 deliveries/s: room for a 300 s tolerance window of them.
 * const store = new MemoryStore({ maxEntries: 500_000 });
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, store });
 * ```
 */
export class MemoryStore implements DeliveryStore {
  // Per key, a Claim while in flight, then only the time it stays done until: one object less per delivery for the
  // GC to carry for the TTL. Times count from the store's epoch, so they stay small integers, not boxed numbers.
  // Done keys are moved to the newest end when completed, so the oldest done keys come first in the Map's order.
  readonly #entries = new Map<string, Claim | number>();
  // Ordered objects, oldest advance first (moved to the newest end when their position moves), bounded like #entries
  // but evicted only once their position has expired.
  readonly #objects = new Map<string, OrderedObject>();
  readonly #maxEntries: number;
  readonly #minRetentionMs: number;
  readonly #now: () => number;
  readonly #epoch: number;
  readonly #logger: SafeLogger;
  // The shortest done TTL seen: a done key expiring at `until` was completed at `until - ttl` or earlier, so it is
  // evictable once `until - at <= shortestTtl - minRetention`, without keeping its completion time per key.
  #shortestTtl = Number.POSITIVE_INFINITY;
  #full = false;
  // Tokens only need to be unique within this store: a counter, not a random UUID, per claim.
  #claims = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = positiveInteger(options.maxEntries ?? DEFAULT_MAX_ENTRIES, "maxEntries");
    this.#minRetentionMs = positiveInteger(options.minRetentionMs ?? 300_000, "minRetentionMs");
    this.#now = options.now ?? Date.now;
    this.#epoch = this.#now();
    this.#logger = safeLogger(options.logger ?? console);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Answers synchronously, as `complete` and `release` do. Throws `MemoryStoreFullError` when it cannot make room. */
  claim(key: string, leaseMs: number): ClaimResult {
    const at = this.#at();
    const entry = this.#live(key, at);
    if (entry !== undefined) return { state: typeof entry === "number" ? "done" : "in-flight" };
    if (this.#entries.size >= this.#maxEntries && !this.#makeRoom(at)) throw this.#refuse();
    const token = String(++this.#claims);
    this.#entries.set(key, { token, until: at + leaseMs });
    return { state: "claimed", token };
  }

  complete(key: string, token: string, ttlMs: number): boolean {
    const at = this.#at();
    if (!this.#heldBy(key, token, at)) return false;
    this.#setDone(key, at, ttlMs);
    return true;
  }

  release(key: string, token: string): boolean {
    if (!this.#heldBy(key, token, this.#at())) return false;
    this.#entries.delete(key);
    return true;
  }

  /** One synchronous step: the dedup claim, the stale verdict and the object's lease (see `DeliveryStore`). */
  claimInOrder(key: string, leaseMs: number, order: ObjectPosition, ttlMs: number): OrderedClaimResult {
    const at = this.#at();
    const entry = this.#live(key, at);
    if (entry !== undefined) return { state: typeof entry === "number" ? "done" : "in-flight" };
    let object = this.#objects.get(order.object);
    if (object !== undefined && object.until <= at && object.leaseUntil <= at) {
      this.#objects.delete(order.object);
      object = undefined;
    }
    if (object !== undefined && object.until > at && order.position <= object.position) {
      this.#roomFor(at);
      this.#setDone(key, at, ttlMs);
      return STALE;
    }
    if (object !== undefined && object.lease !== undefined && object.leaseUntil > at) return BUSY;
    // Both rooms are made before anything is written: a refused claim leaves no key in flight behind it.
    this.#roomFor(at);
    if (object === undefined && this.#objects.size >= this.#maxEntries && !this.#makeObjectRoom(at)) {
      throw this.#refuseObject();
    }
    const token = String(++this.#claims);
    const until = at + leaseMs;
    this.#entries.set(key, { token, until });
    if (object !== undefined) {
      object.lease = token;
      object.leaseUntil = until;
    } else {
      const fresh = { position: Number.NEGATIVE_INFINITY, until: 0, advancedAt: at, lease: token, leaseUntil: until };
      this.#objects.set(order.object, fresh);
    }
    return { state: "claimed", token };
  }

  /** Refuses (false, nothing changed) unless the token holds both the key and the object's lease, both unexpired. */
  completeInOrder(key: string, token: string, ttlMs: number, order: ObjectPosition): boolean {
    const at = this.#at();
    const object = this.#leasedBy(order.object, token, at);
    if (object === undefined || !this.#heldBy(key, token, at)) return false;
    this.#setDone(key, at, ttlMs);
    if (object.until <= at || order.position > object.position) object.position = order.position;
    object.until = at + ttlMs;
    object.advancedAt = at;
    endLease(object);
    this.#objects.delete(order.object);
    this.#objects.set(order.object, object);
    return true;
  }

  releaseInOrder(key: string, token: string, order: ObjectPosition): boolean {
    const at = this.#at();
    if (!this.#heldBy(key, token, at)) return false;
    this.#entries.delete(key);
    const object = this.#leasedBy(order.object, token, at);
    if (object === undefined) return true;
    endLease(object);
    // An object that never had a handled position is nothing to keep.
    if (object.until <= at) this.#objects.delete(order.object);
    return true;
  }

  /** Extends a live claim (and, with `order`, the object's lease it holds) to `leaseMs` from now; see `DeliveryStore`. */
  renew(key: string, token: string, leaseMs: number, order?: ObjectPosition): boolean {
    const at = this.#at();
    const claim = this.#live(key, at);
    if (typeof claim !== "object" || claim.token !== token) return false;
    if (order !== undefined) {
      const object = this.#leasedBy(order.object, token, at);
      if (object === undefined) return false;
      object.leaseUntil = at + leaseMs;
    }
    claim.until = at + leaseMs;
    return true;
  }

  #roomFor(at: number): void {
    if (this.#entries.size >= this.#maxEntries && !this.#makeRoom(at)) throw this.#refuse();
  }

  #setDone(key: string, at: number, ttlMs: number): void {
    if (ttlMs < this.#shortestTtl) this.#shortestTtl = ttlMs;
    this.#entries.delete(key);
    this.#entries.set(key, at + ttlMs);
  }

  /**
   * Forgets, oldest advance first, objects whose position expired, never one whose lease is held: a position dropped
   * before its TTL would let a late older event run. 1/16 of the store at once, as `#makeRoom` does. The walk stops at
   * the first object advanced less than the shortest TTL ago: every later one moved after it and is unexpired too.
   */
  #makeObjectRoom(at: number): boolean {
    let wanted = this.#objects.size - this.#maxEntries + 1 + Math.floor(this.#maxEntries / 16);
    let evicted = 0;
    for (const [name, object] of this.#objects) {
      if (object.leaseUntil > at) continue;
      if (object.until > at) {
        if (at - object.advancedAt < this.#shortestTtl) break;
        continue;
      }
      this.#objects.delete(name);
      evicted++;
      if (--wanted === 0) break;
    }
    if (evicted > 0) this.#full = false;
    return this.#objects.size < this.#maxEntries;
  }

  /** The object, if the token holds its unexpired lease. */
  #leasedBy(name: string, token: string, at: number): OrderedObject | undefined {
    const object = this.#objects.get(name);
    return object !== undefined && object.lease === token && object.leaseUntil > at ? object : undefined;
  }

  #at(): number {
    return this.#now() - this.#epoch;
  }

  /** Only an unexpired in-flight claim with this token can be completed or released (a done key has no token). */
  #heldBy(key: string, token: string, at: number): boolean {
    return (this.#live(key, at) as Claim | undefined)?.token === token;
  }

  #live(key: string, at: number): Claim | number | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined && (typeof entry === "number" ? entry : entry.until) <= at) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /**
   * Evicts, oldest first, expired keys and done keys past their protection, up to 1/16 of the store at once. Batching
   * matters: each `keys()` walk first passes over the slots of deleted keys, so one eviction per insert would walk
   * thousands of holes on every delivery once the store is full. The walk stops at the first protected done key:
   * every later one was completed after it. Claims in flight are stepped over, never evicted.
   */
  #makeRoom(at: number): boolean {
    const evictableBefore = this.#shortestTtl - this.#minRetentionMs;
    let wanted = this.#entries.size - this.#maxEntries + 1 + Math.floor(this.#maxEntries / 16);
    let evicted = 0;
    for (const [key, entry] of this.#entries) {
      if (typeof entry === "number") {
        if (entry > at && entry - at > evictableBefore) break;
      } else if (entry.until > at) {
        continue;
      }
      this.#entries.delete(key);
      evicted++;
      if (--wanted === 0) break;
    }
    if (evicted > 0) this.#full = false;
    return this.#entries.size < this.#maxEntries;
  }

  #refuse(): MemoryStoreFullError {
    return this.#warnFull(
      `MemoryStore is full: ${this.#maxEntries} keys, each a delivery in flight or done less than ${this.#minRetentionMs} ms ago. New deliveries get 503 until keys age out; raise maxEntries (about 100 bytes per key) or use a shared store such as @tidings/redis.`,
    );
  }

  #refuseObject(): MemoryStoreFullError {
    return this.#warnFull(
      `MemoryStore is full: ${this.#maxEntries} ordered objects, each with an event in its handlers or a handled position not yet past its TTL (doneTtlMs). Events of new objects get 503 until positions expire; raise maxEntries or use a shared store such as @tidings/redis or @tidings/postgres.`,
    );
  }

  #warnFull(message: string): MemoryStoreFullError {
    if (!this.#full) {
      this.#full = true;
      this.#logger.warn({ message: `[tidings] ${message}`, code: "store_full", maxEntries: this.#maxEntries });
    }
    return new MemoryStoreFullError(message);
  }
}
