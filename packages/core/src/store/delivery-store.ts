/**
 * A claim on a delivery key: whoever holds the token runs the handlers, the others back off.
 *
 * @example
 * ```ts
 * import type { ClaimResult } from "@tidings/core/adapter";
 * import type { Redis } from "ioredis";
 *
 * // A store's claim in Redis: SET NX takes the key with a lease; completing writes "done" over the token.
 * export async function claim(redis: Redis, key: string, leaseMs: number): Promise<ClaimResult> {
 *   const token = crypto.randomUUID();
 *   if ((await redis.set(key, token, "PX", leaseMs, "NX")) === "OK") return { state: "claimed", token };
 *   return (await redis.get(key)) === "done" ? { state: "done" } : { state: "in-flight" };
 * }
 * ```
 */
export type ClaimResult = { state: "claimed"; token: string } | { state: "in-flight" } | { state: "done" };

/**
 * Which object an ordered event is about, and where it stands in that object's history.
 *
 * @example
 * ```ts
 * import type { ObjectPosition } from "@tidings/core/adapter";
 *
 * const handled = new Map<string, number>(); // object → its handled position
 *
 * // Part of a store's completeInOrder: the object's position only ever moves up.
 * export function advance(order: ObjectPosition): void {
 *   const current = handled.get(order.object) ?? Number.NEGATIVE_INFINITY;
 *   handled.set(order.object, Math.max(current, order.position));
 * }
 * ```
 */
export interface ObjectPosition {
  /** The object's key (a message id, an order number…), scoped by the caller. */
  object: string;
  /** A finite number; only events past the object's handled position run. */
  position: number;
}

/**
 * A claim on an ordered event: the delivery key's states, plus `stale` (at or below the position already handled for
 * the object; the key is marked done in the same step) and `busy` (another event of the object holds its lease).
 * `claimed` takes the delivery key and the object's lease together, with one token.
 *
 * @example
 * ```ts
 * import type { ObjectPosition, OrderedClaimResult } from "@tidings/core/adapter";
 *
 * const handled = new Map<string, number>(); // object → its handled position
 * const leases = new Map<string, string>(); // object → token of the event in its handlers
 *
 * // The ordering half of a store's claimInOrder, one synchronous step (the delivery key's own claim left out).
 * export function claimObject(order: ObjectPosition): OrderedClaimResult {
 *   if (order.position <= (handled.get(order.object) ?? Number.NEGATIVE_INFINITY)) return { state: "stale" };
 *   if (leases.has(order.object)) return { state: "busy" };
 *   const token = crypto.randomUUID();
 *   leases.set(order.object, token);
 *   return { state: "claimed", token };
 * }
 * ```
 */
export type OrderedClaimResult = ClaimResult | { state: "stale" } | { state: "busy" };

/**
 * Where the Receiver records which deliveries are being handled or were handled, so each event's
 * handlers run once. A store may answer synchronously (MemoryStore does): the Receiver then spends no microtask turn
 * on it.
 *
 * Fencing: `complete`, `release`, `renew` and their `…InOrder` forms act only while the caller's token holds a live
 * lease on the key. Once the lease has run out the token holds nothing, even if nobody has claimed the key since: the
 * call answers false and changes nothing, so an instance whose lease expired can neither complete nor release a claim
 * (its own stale one, or one another instance has taken over). `completeInOrder` also needs the token to hold the
 * object's lease, so a holder whose lease lapsed never moves a position. `renew` keeps a lease live while handlers
 * run longer than `leaseMs`.
 *
 * The three `…InOrder` methods and `renew` are what `order` needs; a store without them works for everything else.
 * Each method is one atomic step in the store (one Map operation, one Lua script, one SQL statement), never a read
 * then a write. An ordered event's delivery key is the same key its plain claim uses: a delivery handled with `order`
 * is a duplicate to a receiver without it, and the reverse.
 *
 * @example
 * ```ts
 * import { createReceiver, type DeliveryStore } from "@tidings/core";
 * import type { ClaimResult } from "@tidings/core/adapter";
 *
 * // A sketch over a Map, without expiry: MemoryStore, RedisStore and PostgresStore are the real ones.
 * class MapStore implements DeliveryStore {
 *   readonly #keys = new Map<string, { token: string; until: number } | "done">();
 *   #claims = 0;
 *
 *   claim(key: string, leaseMs: number): ClaimResult {
 *     const held = this.#keys.get(key);
 *     if (held === "done") return { state: "done" };
 *     if (held && held.until > Date.now()) return { state: "in-flight" };
 *     const token = String(++this.#claims);
 *     this.#keys.set(key, { token, until: Date.now() + leaseMs });
 *     return { state: "claimed", token };
 *   }
 *
 *   complete(key: string, token: string): boolean {
 *     const held = this.#keys.get(key);
 *     if (typeof held !== "object" || held.token !== token) return false;
 *     this.#keys.set(key, "done");
 *     return true;
 *   }
 *
 *   release(key: string, token: string): boolean {
 *     const held = this.#keys.get(key);
 *     return typeof held === "object" && held.token === token && this.#keys.delete(key);
 *   }
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, store: new MapStore() });
 * ```
 */
export interface DeliveryStore {
  /** Claims the key for `leaseMs` unless it is held or done. */
  claim(key: string, leaseMs: number): ClaimResult | Promise<ClaimResult>;
  /** Marks the key done for `ttlMs`; false, changing nothing, if the token holds no live lease on it. */
  complete(key: string, token: string, ttlMs: number): boolean | Promise<boolean>;
  /** Drops the claim so a retry runs the handlers again; false, changing nothing, if the token holds no live lease on it. */
  release(key: string, token: string): boolean | Promise<boolean>;
  /**
   * Extends the lease of a claim the token still holds (and, with `order`, the object's lease) to `leaseMs` from now.
   * False, changing nothing, if the token no longer holds the key or its lease already ran out.
   */
  renew?(key: string, token: string, leaseMs: number, order?: ObjectPosition): boolean | Promise<boolean>;
  /**
   * Unless the key is held or done: if `order.position` is at or below the object's handled position, marks the key
   * done for `ttlMs` (`stale`); if another claim holds the object's lease, `busy`; otherwise claims the key and the
   * object's lease for `leaseMs` with one token.
   */
  claimInOrder?(
    key: string,
    leaseMs: number,
    order: ObjectPosition,
    ttlMs: number,
  ): OrderedClaimResult | Promise<OrderedClaimResult>;
  /**
   * Marks the key done for `ttlMs`, moves the object's handled position up to `order.position` (kept for `ttlMs`
   * from now) and ends the object's lease; false, changing nothing, if the token holds no live lease on the key or
   * does not hold the object's lease.
   */
  completeInOrder?(key: string, token: string, ttlMs: number, order: ObjectPosition): boolean | Promise<boolean>;
  /**
   * Drops the claim and the object's lease (if the token holds it), leaving its position: a retry is not stale.
   * False, changing nothing, if the token holds no live lease on the key.
   */
  releaseInOrder?(key: string, token: string, order: ObjectPosition): boolean | Promise<boolean>;
  /**
   * Set when this store, as configured, cannot keep order (a RedisStore on a Redis Cluster without a hash-tagged
   * prefix): why, and what to change. `order` is then refused when the Receiver or worker is created.
   */
  readonly orderUnavailable?: string | undefined;
}

/** A store that keeps order: what `order` requires. */
export type OrderedDeliveryStore = DeliveryStore &
  Required<Pick<DeliveryStore, "claimInOrder" | "completeInOrder" | "releaseInOrder" | "renew">>;

/** The store, if it keeps order; a TypeError naming what is missing otherwise (a setup error, not a 500 per event). */
export function requireOrderedStore(store: DeliveryStore, who: string): OrderedDeliveryStore {
  const missing = (["claimInOrder", "completeInOrder", "releaseInOrder", "renew"] as const).filter(
    (method) => typeof store[method] !== "function",
  );
  if (missing.length === 0) {
    if (store.orderUnavailable) throw new TypeError(`${who}: \`order\`: ${store.orderUnavailable}`);
    return store as OrderedDeliveryStore;
  }
  const name = (store as { constructor?: { name?: string } }).constructor?.name || "The store";
  throw new TypeError(
    `${who}: \`order\` needs a store that keeps order; ${name} has no ${missing.join(", ")}. Use MemoryStore, RedisStore (@tidings/redis) or PostgresStore (@tidings/postgres).`,
  );
}
