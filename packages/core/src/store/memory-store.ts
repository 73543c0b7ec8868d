import { type ClaimResult, type DeliveryStore, newClaimToken } from "./delivery-store";

export interface MemoryStoreOptions {
  /** Most keys kept; the least recently used go first. Default 10,000. */
  maxEntries?: number;
  /** Current time in milliseconds. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  state: "in-flight" | "done";
  token: string;
  expiresAt: number;
}

/** An in-process, bounded (LRU + TTL) DeliveryStore: dedup for a receiver that runs as a single instance. */
export class MemoryStore implements DeliveryStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new TypeError("maxEntries must be a positive integer");
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimResult> {
    const entry = this.#live(key);
    if (entry) return { state: entry.state };
    const token = newClaimToken();
    this.#set(key, { state: "in-flight", token, expiresAt: this.#now() + leaseMs });
    return { state: "claimed", token };
  }

  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    if (!this.#heldBy(key, token)) return false;
    this.#set(key, { state: "done", token, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async release(key: string, token: string): Promise<boolean> {
    if (!this.#heldBy(key, token)) return false;
    this.#entries.delete(key);
    return true;
  }

  /** Only an unexpired in-flight claim with this token can be completed or released. */
  #heldBy(key: string, token: string): boolean {
    const entry = this.#live(key);
    return entry?.state === "in-flight" && entry.token === token;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** (Re)inserts at the most recent end of the map's order, then evicts from the oldest end. */
  #set(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}
