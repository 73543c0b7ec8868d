import { describe, expect, it } from "vitest";
import { MemoryStore } from "../src";

function clockedStore(maxEntries?: number) {
  const clock = { ms: 1_000_000 };
  const store = new MemoryStore({ now: () => clock.ms, ...(maxEntries ? { maxEntries } : {}) });
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

  it("stays within maxEntries, evicting the oldest claim first", () => {
    const { store } = clockedStore(3);
    for (const key of ["a", "b", "c"]) store.complete(key, claimToken(store, key), 60_000);
    store.complete("a", "stale token", 60_000);
    claimToken(store, "d");
    expect(store.size).toBe(3);
    expect(store.claim("a", 1000)).toMatchObject({ state: "claimed" });
    expect(store.claim("c", 1000)).toEqual({ state: "done" });
  });

  it("evicts a batch of the oldest claims at once when it passes maxEntries", () => {
    const { store } = clockedStore(32);
    for (let n = 0; n < 33; n++) claimToken(store, `k${n}`);
    expect(store.size).toBe(30); // 1 over the limit + 32/16
    expect(store.claim("k0", 1000)).toMatchObject({ state: "claimed" });
    expect(store.claim("k3", 1000)).toEqual({ state: "in-flight" });
  });

  it("rejects a non-positive maxEntries", () => {
    expect(() => new MemoryStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});
