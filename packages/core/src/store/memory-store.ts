import { positiveInteger } from "../positive-integer";
import type { ClaimResult, DeliveryStore } from "./delivery-store";

export interface MemoryStoreOptions {
  /** Most keys kept; past it the oldest claims go first, 1/16 of them at a time. Default 10,000. */
  maxEntries?: number;
  /** Current time in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** A key being handled: who holds it, and until when (ms after the store's epoch). */
interface Claim {
  token: string;
  until: number;
}

/** An in-process, bounded (oldest claims evicted first, TTL) DeliveryStore: dedup for a single-instance receiver. */
export class MemoryStore implements DeliveryStore {
  // Per key, a Claim while in flight, then only the time it stays done until: one object less per delivery for the
  // GC to carry for the TTL. Times count from the store's epoch, so they stay small integers, not boxed numbers.
  readonly #entries = new Map<string, Claim | number>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #epoch: number;
  // Tokens only need to be unique within this store: a counter, not a random UUID, per claim.
  #claims = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = positiveInteger(options.maxEntries ?? 10_000, "maxEntries");
    this.#now = options.now ?? Date.now;
    this.#epoch = this.#now();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Answers synchronously, as `complete` and `release` do. */
  claim(key: string, leaseMs: number): ClaimResult {
    const at = this.#at();
    const entry = this.#live(key, at);
    if (entry !== undefined) return { state: typeof entry === "number" ? "done" : "in-flight" };
    const token = String(++this.#claims);
    this.#insert(key, { token, until: at + leaseMs });
    return { state: "claimed", token };
  }

  complete(key: string, token: string, ttlMs: number): boolean {
    const at = this.#at();
    if (!this.#heldBy(key, token, at)) return false;
    // Setting an existing key keeps its place in the Map's order (and its slot).
    this.#entries.set(key, at + ttlMs);
    return true;
  }

  release(key: string, token: string): boolean {
    if (!this.#heldBy(key, token, this.#at())) return false;
    this.#entries.delete(key);
    return true;
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
   * Adds a claim at the newest end of the Map's order; past `maxEntries`, evicts the oldest claims in a batch.
   * Batching matters: each `keys()` iterator first walks over the slots of deleted keys, so evicting one key per
   * insert would cost a walk over thousands of holes on every delivery once the store is full.
   */
  #insert(key: string, entry: Claim): void {
    this.#entries.set(key, entry);
    if (this.#entries.size <= this.#maxEntries) return;
    let excess = this.#entries.size - this.#maxEntries + Math.floor(this.#maxEntries / 16);
    for (const oldest of this.#entries.keys()) {
      if (excess-- <= 0) break;
      this.#entries.delete(oldest);
    }
  }
}
