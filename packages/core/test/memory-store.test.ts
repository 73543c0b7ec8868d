import { describe, expect, it } from "vitest";
import { MemoryStore } from "../src";

function clockedStore(maxEntries?: number) {
  const clock = { ms: 1_000_000 };
  const store = new MemoryStore({ now: () => clock.ms, ...(maxEntries ? { maxEntries } : {}) });
  return { store, clock };
}

async function claimToken(store: MemoryStore, key: string, leaseMs = 1000): Promise<string> {
  const claim = await store.claim(key, leaseMs);
  if (claim.state !== "claimed") throw new Error(`expected to claim ${key}, got ${claim.state}`);
  return claim.token;
}

describe("MemoryStore", () => {
  it("claims once, reports in-flight while held, done after completion", async () => {
    const { store } = clockedStore();
    const token = await claimToken(store, "k");
    await expect(store.claim("k", 1000)).resolves.toEqual({ state: "in-flight" });
    await expect(store.complete("k", token, 5000)).resolves.toBe(true);
    await expect(store.claim("k", 1000)).resolves.toEqual({ state: "done" });
  });

  it("lets a released key be claimed again", async () => {
    const { store } = clockedStore();
    const token = await claimToken(store, "k");
    await expect(store.release("k", token)).resolves.toBe(true);
    await expect(store.claim("k", 1000)).resolves.toMatchObject({ state: "claimed" });
  });

  it("lets another claimant take over when the lease expires, and ignores the late owner", async () => {
    const { store, clock } = clockedStore();
    const late = await claimToken(store, "k", 1000);
    clock.ms += 1000;
    const current = await claimToken(store, "k");
    expect(current).not.toBe(late);
    await expect(store.complete("k", late, 5000)).resolves.toBe(false);
    await expect(store.release("k", late)).resolves.toBe(false);
    await expect(store.claim("k", 1000)).resolves.toEqual({ state: "in-flight" });
    await expect(store.complete("k", current, 5000)).resolves.toBe(true);
  });

  it("forgets done keys after their TTL", async () => {
    const { store, clock } = clockedStore();
    await store.complete("k", await claimToken(store, "k"), 5000);
    clock.ms += 4999;
    await expect(store.claim("k", 1000)).resolves.toEqual({ state: "done" });
    clock.ms += 1;
    await expect(store.claim("k", 1000)).resolves.toMatchObject({ state: "claimed" });
  });

  it("stays within maxEntries, evicting the oldest claim first", async () => {
    const { store } = clockedStore(3);
    for (const key of ["a", "b", "c"]) await store.complete(key, await claimToken(store, key), 60_000);
    await store.complete("a", "stale token", 60_000);
    await claimToken(store, "d");
    expect(store.size).toBe(3);
    await expect(store.claim("a", 1000)).resolves.toMatchObject({ state: "claimed" });
    await expect(store.claim("c", 1000)).resolves.toEqual({ state: "done" });
  });

  it("evicts a batch of the oldest claims at once when it passes maxEntries", async () => {
    const { store } = clockedStore(32);
    for (let n = 0; n < 33; n++) await claimToken(store, `k${n}`);
    expect(store.size).toBe(30); // 1 over the limit + 32/16
    await expect(store.claim("k0", 1000)).resolves.toMatchObject({ state: "claimed" });
    await expect(store.claim("k3", 1000)).resolves.toEqual({ state: "in-flight" });
  });

  it("rejects a non-positive maxEntries", () => {
    expect(() => new MemoryStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});
