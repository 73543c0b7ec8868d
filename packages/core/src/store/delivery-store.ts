/** A claim on a delivery key: whoever holds the token runs the handlers, the others back off. */
export type ClaimResult = { state: "claimed"; token: string } | { state: "in-flight" } | { state: "done" };

/**
 * Where the Receiver records which deliveries are being handled or were handled, so each event's
 * handlers run once. Each method acts on a key only if the caller's token still owns it: an instance
 * whose lease expired cannot complete or release a claim another instance has taken over.
 * A store may answer synchronously (MemoryStore does): the Receiver then spends no microtask turn on it.
 */
export interface DeliveryStore {
  /** Claims the key for `leaseMs` unless it is held or done. */
  claim(key: string, leaseMs: number): ClaimResult | Promise<ClaimResult>;
  /** Marks the key done for `ttlMs`; false if the token no longer owns it. */
  complete(key: string, token: string, ttlMs: number): boolean | Promise<boolean>;
  /** Drops the claim so a retry runs the handlers again; false if the token no longer owns it. */
  release(key: string, token: string): boolean | Promise<boolean>;
}
