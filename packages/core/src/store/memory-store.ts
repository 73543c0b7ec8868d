import { positiveInteger } from "../positive-integer";
import type { ClaimResult, DeliveryStore } from "./delivery-store";

export interface MemoryStoreOptions {
  /** Most keys kept; past it the oldest claims go first, 1/16 of them at a time. Default 10,000. */
  maxEntries?: number;
  /** Current time in milliseconds. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  state: "in-flight" | "done";
  token: string;
  expiresAt: number;
}

/** An in-process, bounded (oldest claims evicted first, TTL) DeliveryStore: dedup for a single-instance receiver. */
export class MemoryStore implements DeliveryStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  // Tokens only need to be unique within this store: a counter, not a random UUID, per claim.
  #claims = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = positiveInteger(options.maxEntries ?? 10_000, "maxEntries");
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Answers synchronously, as `complete` and `release` do. */
  claim(key: string, leaseMs: number): ClaimResult {
    const now = this.#now();
    const entry = this.#live(key, now);
    if (entry) return { state: entry.state };
    const token = String(++this.#claims);
    this.#insert(key, { state: "in-flight", token, expiresAt: now + leaseMs });
    return { state: "claimed", token };
  }

  complete(key: string, token: string, ttlMs: number): boolean {
    const entry = this.#heldBy(key, token);
    if (!entry) return false;
    // In place: re-inserting would leave a deleted slot in the Map for every delivery.
    entry.state = "done";
    entry.expiresAt = this.#now() + ttlMs;
    return true;
  }

  release(key: string, token: string): boolean {
    if (!this.#heldBy(key, token)) return false;
    this.#entries.delete(key);
    return true;
  }

  /** The entry, if it is an unexpired in-flight claim with this token: only those can be completed or released. */
  #heldBy(key: string, token: string): Entry | undefined {
    const entry = this.#live(key, this.#now());
    return entry?.state === "in-flight" && entry.token === token ? entry : undefined;
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= now) {
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
  #insert(key: string, entry: Entry): void {
    this.#entries.set(key, entry);
    if (this.#entries.size <= this.#maxEntries) return;
    let excess = this.#entries.size - this.#maxEntries + Math.floor(this.#maxEntries / 16);
    for (const oldest of this.#entries.keys()) {
      if (excess-- <= 0) break;
      this.#entries.delete(oldest);
    }
  }
}
