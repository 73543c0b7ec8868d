/**
 * The least dedup a careful hand-written receiver does: each event id in a Map, `false` while its handler runs and
 * `true` once it succeeded, bounded like the MemoryStore (past 10,000 ids the oldest 1/16 go at once). No TTL, no
 * lease, no token, no key prefix: the floor that the MemoryStore's extra guarantees are measured against.
 */
const MAX_IDS = 10_000;
const handled = new Map<string, boolean>();

export type InlineClaim = "claimed" | "in-flight" | "done";

export function claimId(id: string): InlineClaim {
  const state = handled.get(id);
  if (state !== undefined) return state ? "done" : "in-flight";
  handled.set(id, false);
  if (handled.size > MAX_IDS) {
    let excess = handled.size - MAX_IDS + Math.floor(MAX_IDS / 16);
    for (const oldest of handled.keys()) {
      if (excess-- <= 0) break;
      handled.delete(oldest);
    }
  }
  return "claimed";
}

/** A failed handler forgets the id, so the sender's retry runs it again. */
export function settleId(id: string, succeeded: boolean): void {
  if (succeeded) handled.set(id, true);
  else handled.delete(id);
}
