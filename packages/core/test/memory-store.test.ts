import { describe, expect, it } from "vitest";
import { MemoryStore, type MemoryStoreOptions } from "../src/entries";
import { MemoryStoreFullError } from "../src/store/memory-store";

function clockedStore(options: MemoryStoreOptions = {}) {
  const clock = { ms: 1_000_000 };
  const store = new MemoryStore({ now: () => clock.ms, logger: { error() {}, warn() {} }, ...options });
  return { store, clock };
}

function claimToken(store: MemoryStore, key: string, leaseMs = 1000): string {
  const claim = store.claim(key, leaseMs);
  if (claim.state !== "claimed") throw new Error(`expected to claim ${key}, got ${claim.state}`);
  return claim.token;
}

describe("MemoryStore", () => {
  it("claims once, reports in-flight while held, done after completion", () => {
    const { store } = clockedStore();
    const token = claimToken(store, "k");
    expect(store.claim("k", 1000)).toEqual({ state: "in-flight" });
    expect(store.complete("k", token, 5000)).toBe(true);
    expect(store.claim("k", 1000)).toEqual({ state: "done" });
  });

  it("lets a released key be claimed again", () => {
    const { store } = clockedStore();
    const token = claimToken(store, "k");
    expect(store.release("k", token)).toBe(true);
    expect(store.claim("k", 1000)).toMatchObject({ state: "claimed" });
  });

  it("lets another claimant take over when the lease expires, and ignores the late owner", () => {
    const { store, clock } = clockedStore();
    const late = claimToken(store, "k", 1000);
    clock.ms += 1000;
    const current = claimToken(store, "k");
    expect(current).not.toBe(late);
    expect(store.complete("k", late, 5000)).toBe(false);
    expect(store.release("k", late)).toBe(false);
    expect(store.claim("k", 1000)).toEqual({ state: "in-flight" });
    expect(store.complete("k", current, 5000)).toBe(true);
  });

  it("forgets done keys after their TTL", () => {
    const { store, clock } = clockedStore();
    store.complete("k", claimToken(store, "k"), 5000);
    clock.ms += 4999;
    expect(store.claim("k", 1000)).toEqual({ state: "done" });
    clock.ms += 1;
    expect(store.claim("k", 1000)).toMatchObject({ state: "claimed" });
  });

  it("stays within maxEntries by evicting the oldest done keys once they are past the retention", () => {
    const { store, clock } = clockedStore({ maxEntries: 3, minRetentionMs: 10_000 });
    for (const key of ["a", "b", "c"]) store.complete(key, claimToken(store, key), 60_000);
    clock.ms += 10_000;
    claimToken(store, "d");
    expect(store.size).toBe(3);
    expect(store.claim("a", 1000)).toMatchObject({ state: "claimed" });
    expect(store.claim("c", 1000)).toEqual({ state: "done" });
  });

  it("evicts a batch of the oldest evictable keys at once when it passes maxEntries", () => {
    const { store, clock } = clockedStore({ maxEntries: 32, minRetentionMs: 10_000 });
    for (let n = 0; n < 32; n++) store.complete(`k${n}`, claimToken(store, `k${n}`), 60_000);
    clock.ms += 10_000;
    claimToken(store, "new");
    expect(store.size).toBe(30); // 1 over the limit + 32/16 evicted
    expect(store.claim("k2", 1000)).toMatchObject({ state: "claimed" });
    expect(store.claim("k3", 1000)).toEqual({ state: "done" });
  });

  it("never evicts a done key younger than the retention: refuses new claims instead, warning once", () => {
    const warnings: unknown[] = [];
    const logger = { error() {}, warn: (line: unknown) => warnings.push(line) };
    const { store, clock } = clockedStore({ maxEntries: 4, minRetentionMs: 300_000, logger });
    for (const key of ["a", "b", "c", "d"]) store.complete(key, claimToken(store, key), 86_400_000);
    clock.ms += 299_999;
    expect(() => store.claim("e", 1000)).toThrow(MemoryStoreFullError);
    expect(() => store.claim("f", 1000)).toThrow(/raise maxEntries/);
    expect(warnings).toHaveLength(1);
    for (const key of ["a", "b", "c", "d"]) expect(store.claim(key, 1000)).toEqual({ state: "done" });
    clock.ms += 1;
    expect(store.claim("e", 1000)).toMatchObject({ state: "claimed" });
    expect(store.claim("a", 1000)).toMatchObject({ state: "claimed" });
  });

  it("never evicts a claim in flight, however old and however full the store", () => {
    const { store, clock } = clockedStore({ maxEntries: 2, minRetentionMs: 1000 });
    claimToken(store, "slow", 60_000);
    store.complete("quick", claimToken(store, "quick"), 5000);
    clock.ms += 2000;
    claimToken(store, "next");
    expect(store.claim("slow", 1000)).toEqual({ state: "in-flight" });
    expect(() => store.claim("another", 1000)).toThrow(MemoryStoreFullError);
    expect(store.claim("slow", 1000)).toEqual({ state: "in-flight" });
  });

  it("keeps replay protection through a flood: a done key is never forgotten within the retention", () => {
    const { store, clock } = clockedStore({ maxEntries: 1000, minRetentionMs: 300_000 });
    const done = new Map<string, number>();
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      clock.ms += 50; // 20 deliveries/s past a store sized for fewer
      const key = `evt_${n}`;
      try {
        store.complete(key, claimToken(store, key), 86_400_000);
        done.set(key, clock.ms);
      } catch {
        refused++;
      }
      const probe = `evt_${Math.floor(n / 2)}`;
      const completedAt = done.get(probe);
      if (completedAt !== undefined && clock.ms - completedAt < 300_000) {
        expect(store.claim(probe, 1000)).toEqual({ state: "done" });
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(store.size).toBeLessThanOrEqual(1000);
  });

  it("rejects a non-positive maxEntries", () => {
    expect(() => new MemoryStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});
