import type { DeliveryStore } from "@tidings/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyString, nearStrings } from "./strings";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = 150;
const PAST_LEASE_MS = 400;

async function claimToken(store: DeliveryStore, key: string, leaseMs = 10_000): Promise<string> {
  const claim = await store.claim(key, leaseMs);
  if (claim.state !== "claimed") throw new Error(`expected to claim ${key}, got ${claim.state}`);
  return claim.token;
}

/** The behaviour every DeliveryStore must have; each test gets a fresh store and unique keys. */
export function describeStoreContract(name: string, makeStore: () => DeliveryStore): void {
  describe(`${name} honours the DeliveryStore contract`, () => {
    let counter = 0;
    const key = () => `contract-${Date.now()}-${counter++}`;

    it("claims a key once; later claims see in-flight, then done", async () => {
      const store = makeStore();
      const k = key();
      const token = await claimToken(store, k);
      expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.complete(k, token, 10_000)).toBe(true);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("hands out a different token to every claimant", async () => {
      const store = makeStore();
      const first = await claimToken(store, key());
      const second = await claimToken(store, key());
      expect(first).not.toBe(second);
    });

    it("makes a released key claimable again", async () => {
      const store = makeStore();
      const k = key();
      expect(await store.release(k, await claimToken(store, k))).toBe(true);
      expect(await store.claim(k, 10_000)).toMatchObject({ state: "claimed" });
    });

    it("ignores complete and release with a token that does not own the key", async () => {
      const store = makeStore();
      const k = key();
      const token = await claimToken(store, k);
      expect(await store.complete(k, "not-the-token", 10_000)).toBe(false);
      expect(await store.release(k, "not-the-token")).toBe(false);
      expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.complete(k, token, 10_000)).toBe(true);
      expect(await store.release(k, token)).toBe(false);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("lets another claimant take over an expired lease, and the late owner cannot complete or release it", async () => {
      const store = makeStore();
      const k = key();
      const late = await claimToken(store, k, LEASE_MS);
      await sleep(PAST_LEASE_MS);
      const current = await claimToken(store, k);
      expect(await store.complete(k, late, 10_000)).toBe(false);
      expect(await store.release(k, late)).toBe(false);
      expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.complete(k, current, 10_000)).toBe(true);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("forgets a done key after its TTL", async () => {
      const store = makeStore();
      const k = key();
      await store.complete(k, await claimToken(store, k), LEASE_MS);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
      await sleep(PAST_LEASE_MS);
      expect(await store.claim(k, 10_000)).toMatchObject({ state: "claimed" });
    });

    it("property: keeps every two different keys apart, lone surrogates and U+FFFD included", async () => {
      const store = makeStore();
      await fc.assert(
        fc.asyncProperty(fc.oneof(nearStrings(), fc.tuple(anyString(), anyString())), async ([a, b]) => {
          fc.pre(a !== b);
          const run = key();
          const token = await claimToken(store, run + a);
          expect(await store.claim(run + b, 10_000)).toMatchObject({ state: "claimed" });
          expect(await store.complete(run + a, token, 10_000)).toBe(true);
          expect(await store.claim(run + a, 10_000)).toEqual({ state: "done" });
          expect(await store.claim(run + b, 10_000)).toEqual({ state: "in-flight" });
        }),
        { numRuns: 200 },
      );
    });

    it("grants exactly one of many simultaneous claims on a key", async () => {
      const store = makeStore();
      const k = key();
      const claims = await Promise.all(Array.from({ length: 50 }, () => store.claim(k, 10_000)));
      expect(claims.filter((claim) => claim.state === "claimed")).toHaveLength(1);
      expect(claims.filter((claim) => claim.state === "in-flight")).toHaveLength(49);
    });
  });
}
