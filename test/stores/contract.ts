import type { DeliveryStore } from "@tidings/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { until } from "../support/wait";
import { anyString, nearStrings } from "./strings";

const LEASE_MS = 150;
const PAST_LEASE_MS = 400;
// Redis and PostgreSQL expire keys on their own clock: the contract asks them again until the lease has run out.
const EXPIRY_BUDGET_MS = 10_000;

async function claimToken(store: DeliveryStore, key: string, leaseMs = 10_000): Promise<string> {
  const claim = await store.claim(key, leaseMs);
  if (claim.state !== "claimed") throw new Error(`expected to claim ${key}, got ${claim.state}`);
  return claim.token;
}

/** How the tests reach a store's time and a second instance of it. */
export interface StoreContractOptions {
  /** Moves the store's injected clock on by `ms`. Without it, expiry is the engine's: the tests poll for it. */
  passTime?: (ms: number) => void;
  /** Another store on the same data, as a second receiver instance would hold (its own connection). */
  twin: (store: DeliveryStore) => DeliveryStore;
}

/**
 * The first answer of `attempt` other than `held`, once a lease or TTL of `LEASE_MS` has run out: asked once after
 * moving the store's clock past it, or, where the engine keeps the time, again until the engine has expired it.
 */
async function afterExpiry<C extends { state: string }>(
  options: StoreContractOptions,
  held: C["state"],
  attempt: () => C | Promise<C>,
): Promise<C> {
  if (options.passTime) {
    options.passTime(PAST_LEASE_MS);
    return attempt();
  }
  let answer: C | undefined;
  await until(
    async () => {
      answer = await attempt();
      return answer.state !== held;
    },
    `the engine to end a ${LEASE_MS} ms lease (still ${held})`,
    { withinMs: EXPIRY_BUDGET_MS },
  );
  return answer as C;
}

/**
 * Waits until a lease of `LEASE_MS` taken now has run out, without touching the keys under test: a control key claimed
 * after them is claimed again once its own lease has run out, and theirs, taken earlier, ran out before it.
 */
async function pastLease(store: DeliveryStore, options: StoreContractOptions, control: string): Promise<void> {
  await claimToken(store, control, LEASE_MS);
  tokenOf(await afterExpiry(options, "in-flight", () => store.claim(control, 10_000)));
}

/** `length` characters that no compression shrinks (a btree entry of PostgreSQL compresses repetitive text). */
function noise(length: number): string {
  return Array.from({ length: Math.ceil(length / 36) }, () => crypto.randomUUID())
    .join("")
    .slice(0, length);
}

function tokenOf(claim: { state: string; token?: string }): string {
  if (claim.state !== "claimed" || claim.token === undefined) throw new Error(`expected claimed, got ${claim.state}`);
  return claim.token;
}

/** The behaviour every DeliveryStore must have; each test gets a fresh store and unique keys. */
export function describeStoreContract(
  name: string,
  makeStore: () => DeliveryStore,
  options: StoreContractOptions,
): void {
  describeOrderContract(name, makeStore, options);
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
      const current = tokenOf(await afterExpiry(options, "in-flight", () => store.claim(k, 10_000)));
      expect(await store.complete(k, late, 10_000)).toBe(false);
      expect(await store.release(k, late)).toBe(false);
      expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.complete(k, current, 10_000)).toBe(true);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("renews a claim before it expires: still in flight to others past its first lease", async () => {
      const store = makeStore();
      const k = key();
      const token = await claimToken(store, k, LEASE_MS);
      expect(await store.renew?.(k, token, 10_000)).toBe(true);
      await pastLease(store, options, key());
      expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.complete(k, token, 10_000)).toBe(true);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("refuses renew, complete and release once the lease ran out, though nobody claimed the key since", async () => {
      const store = makeStore();
      const k = key();
      const token = await claimToken(store, k, LEASE_MS);
      expect(await store.renew?.(k, "not-the-token", 10_000)).toBe(false);
      await pastLease(store, options, key());
      expect(await store.renew?.(k, token, 10_000)).toBe(false);
      expect(await store.complete(k, token, 10_000)).toBe(false);
      expect(await store.release(k, token)).toBe(false);
      expect(await store.claim(k, 10_000)).toMatchObject({ state: "claimed" });
    });

    it("does not let a late owner's renew disturb the claim that took over its expired lease", async () => {
      const store = makeStore();
      const k = key();
      const late = await claimToken(store, k, LEASE_MS);
      const current = tokenOf(await afterExpiry(options, "in-flight", () => store.claim(k, LEASE_MS)));
      expect(await store.renew?.(k, late, 10_000)).toBe(false);
      expect(await store.renew?.(k, current, 10_000)).toBe(true);
      expect(await store.complete(k, current, 10_000)).toBe(true);
      expect(await store.renew?.(k, current, 10_000)).toBe(false);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
    });

    it("keeps keys of 3,000 and 10,000 characters: claimed once, done, and apart from each other", async () => {
      const store = makeStore();
      const run = key();
      const keys = [3000, 10_000].flatMap((length) => {
        const long = run + noise(length - run.length - 1);
        return [`${long}x`, `${long}y`];
      });
      keys.push(run + noise(1000).replace(/-/g, "\u0000\uD800\u00E9"));
      for (const k of keys) {
        const token = await claimToken(store, k);
        expect(await store.claim(k, 10_000)).toEqual({ state: "in-flight" });
        expect(await store.complete(k, token, 10_000)).toBe(true);
      }
      for (const k of keys) expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
      expect(await store.claim(`${keys[3]}z`, 10_000)).toMatchObject({ state: "claimed" });
    });

    it("forgets a done key after its TTL", async () => {
      const store = makeStore();
      const k = key();
      await store.complete(k, await claimToken(store, k), LEASE_MS);
      expect(await store.claim(k, 10_000)).toEqual({ state: "done" });
      expect(await afterExpiry(options, "done", () => store.claim(k, 10_000))).toMatchObject({ state: "claimed" });
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

type Ordered = Required<DeliveryStore>;

function ordered(store: DeliveryStore): Ordered {
  if (!store.claimInOrder || !store.completeInOrder || !store.releaseInOrder || !store.renew)
    throw new Error("the store keeps no order");
  return store as Ordered;
}

async function claimAt(store: Ordered, key: string, object: string, position: number, leaseMs = 10_000) {
  const claim = await store.claimInOrder(key, leaseMs, { object, position }, 10_000);
  if (claim.state !== "claimed") throw new Error(`expected to claim ${key} at ${position}, got ${claim.state}`);
  return claim.token;
}

/** The three `…InOrder` operations: stale verdicts, one lease per object, positions that move only on success. */
function describeOrderContract(name: string, makeStore: () => DeliveryStore, options: StoreContractOptions): void {
  describe(`${name} keeps each object's events in order`, () => {
    let counter = 0;
    const unique = () => `order-${Date.now()}-${counter++}`;
    const at = (object: string, position: number) => ({ object, position });

    it("runs increasing positions, answers a position at or below the handled one stale and remembers it as done", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const first = await claimAt(store, `${object}-1`, object, 1);
      expect(await store.completeInOrder(`${object}-1`, first, 10_000, at(object, 1))).toBe(true);
      const third = await claimAt(store, `${object}-3`, object, 3);
      expect(await store.completeInOrder(`${object}-3`, third, 10_000, at(object, 3))).toBe(true);
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "stale" });
      expect(await store.claimInOrder(`${object}-3b`, 10_000, at(object, 3), 10_000)).toEqual({ state: "stale" });
      // A stale event is done: its replay is a duplicate, even once the object has moved on.
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "done" });
      expect(await store.claimInOrder(`${object}-1`, 10_000, at(object, 1), 10_000)).toEqual({ state: "done" });
      expect(await store.claimInOrder(`${object}-4`, 10_000, at(object, 4), 10_000)).toMatchObject({
        state: "claimed",
      });
    });

    it("lets one event of an object into its handlers at a time; the next one gets in once it completes", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const token = await claimAt(store, `${object}-2`, object, 2);
      expect(await store.claimInOrder(`${object}-3`, 10_000, at(object, 3), 10_000)).toEqual({ state: "busy" });
      expect(await store.claimInOrder(`${object}-1`, 10_000, at(object, 1), 10_000)).toEqual({ state: "busy" });
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "in-flight" });
      // Another object is not held up.
      expect(await store.claimInOrder(`${object}-x`, 10_000, at(`${object}x`, 3), 10_000)).toMatchObject({
        state: "claimed",
      });
      expect(await store.completeInOrder(`${object}-2`, token, 10_000, at(object, 2))).toBe(true);
      expect(await store.claimInOrder(`${object}-1`, 10_000, at(object, 1), 10_000)).toEqual({ state: "stale" });
      expect(await store.claimInOrder(`${object}-3`, 10_000, at(object, 3), 10_000)).toMatchObject({
        state: "claimed",
      });
    });

    it("leaves the position where it was when the handlers failed, so the retry is not stale", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const done = await claimAt(store, `${object}-1`, object, 1);
      await store.completeInOrder(`${object}-1`, done, 10_000, at(object, 1));
      const failed = await claimAt(store, `${object}-2`, object, 2);
      expect(await store.releaseInOrder(`${object}-2`, failed, at(object, 2))).toBe(true);
      expect(await store.releaseInOrder(`${object}-2`, failed, at(object, 2))).toBe(false);
      const retry = await claimAt(store, `${object}-2`, object, 2);
      expect(await store.completeInOrder(`${object}-2`, retry, 10_000, at(object, 2))).toBe(true);
      expect(await store.claimInOrder(`${object}-2b`, 10_000, at(object, 2), 10_000)).toEqual({ state: "stale" });
    });

    it("ignores completing or releasing with a token that does not own the key: nothing moves, the lease holds", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const token = await claimAt(store, `${object}-5`, object, 5);
      expect(await store.completeInOrder(`${object}-5`, "not-the-token", 10_000, at(object, 5))).toBe(false);
      expect(await store.releaseInOrder(`${object}-5`, "not-the-token", at(object, 5))).toBe(false);
      expect(await store.claimInOrder(`${object}-6`, 10_000, at(object, 6), 10_000)).toEqual({ state: "busy" });
      expect(await store.releaseInOrder(`${object}-5`, token, at(object, 5))).toBe(true);
      expect(await store.claimInOrder(`${object}-4`, 10_000, at(object, 4), 10_000)).toMatchObject({
        state: "claimed",
      });
    });

    it("frees an object whose lease expired (its instance crashed); the late owner then moves nothing", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const crashed = await claimAt(store, `${object}-2`, object, 2, LEASE_MS);
      expect(await store.claimInOrder(`${object}-3`, 10_000, at(object, 3), 10_000)).toEqual({ state: "busy" });
      const next = tokenOf(
        await afterExpiry(options, "busy", () => store.claimInOrder(`${object}-3`, 10_000, at(object, 3), 10_000)),
      );
      expect(await store.completeInOrder(`${object}-2`, crashed, 10_000, at(object, 2))).toBe(false);
      expect(await store.releaseInOrder(`${object}-2`, crashed, at(object, 2))).toBe(false);
      expect(await store.claimInOrder(`${object}-4`, 10_000, at(object, 4), 10_000)).toEqual({ state: "busy" });
      expect(await store.completeInOrder(`${object}-3`, next, 10_000, at(object, 3))).toBe(true);
      // The crashed event's retry comes after 3 was handled: stale.
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "stale" });
    });

    it("shares the delivery key with the plain steps: handled either way, a duplicate to the other", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const plain = `${object}-plain`;
      await store.complete(plain, await claimToken(store, plain), 10_000);
      expect(await store.claimInOrder(plain, 10_000, at(object, 1), 10_000)).toEqual({ state: "done" });
      const orderedKey = `${object}-ordered`;
      const token = await claimAt(store, orderedKey, object, 2);
      expect(await store.claim(orderedKey, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.completeInOrder(orderedKey, token, 10_000, at(object, 2))).toBe(true);
      expect(await store.claim(orderedKey, 10_000)).toEqual({ state: "done" });
      const held = `${object}-held`;
      await claimToken(store, held);
      expect(await store.claimInOrder(held, 10_000, at(object, 3), 10_000)).toEqual({ state: "in-flight" });
    });

    it("renews the key and the object's lease together: the next event stays busy past the first lease", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const token = await claimAt(store, `${object}-1`, object, 1, LEASE_MS);
      expect(await store.renew(`${object}-1`, token, 10_000, at(`${object}x`, 1))).toBe(false);
      expect(await store.renew(`${object}-1`, token, 10_000, at(object, 1))).toBe(true);
      await pastLease(store, options, `${object}-control`);
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "busy" });
      expect(await store.claim(`${object}-1`, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.completeInOrder(`${object}-1`, token, 10_000, at(object, 1))).toBe(true);
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toMatchObject({
        state: "claimed",
      });
    });

    it("refuses completeInOrder once the lease ran out: the key stays claimable, the position where it was", async () => {
      const store = ordered(makeStore());
      const object = unique();
      await store.completeInOrder(`${object}-1`, await claimAt(store, `${object}-1`, object, 1), 10_000, at(object, 1));
      const lapsed = await claimAt(store, `${object}-5`, object, 5, LEASE_MS);
      await pastLease(store, options, `${object}-control`);
      expect(await store.renew(`${object}-5`, lapsed, 10_000, at(object, 5))).toBe(false);
      expect(await store.completeInOrder(`${object}-5`, lapsed, 10_000, at(object, 5))).toBe(false);
      expect(await store.releaseInOrder(`${object}-5`, lapsed, at(object, 5))).toBe(false);
      // Position 1 still stands: 3 runs, and 5 itself is claimable again.
      const three = await claimAt(store, `${object}-3`, object, 3);
      expect(await store.completeInOrder(`${object}-3`, three, 10_000, at(object, 3))).toBe(true);
      expect(await store.claimInOrder(`${object}-5`, 10_000, at(object, 5), 10_000)).toMatchObject({
        state: "claimed",
      });
    });

    it("refuses completeInOrder by a token that holds the key but not the object's lease", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const other = `${object}-other`;
      const token = await claimAt(store, `${object}-2`, object, 2);
      expect(await store.completeInOrder(`${object}-2`, token, 10_000, at(other, 9))).toBe(false);
      expect(await store.claim(`${object}-2`, 10_000)).toEqual({ state: "in-flight" });
      expect(await store.claimInOrder(`${other}-1`, 10_000, at(other, 1), 10_000)).toMatchObject({ state: "claimed" });
      expect(await store.completeInOrder(`${object}-2`, token, 10_000, at(object, 2))).toBe(true);
    });

    it("does not let a late holder's renew, complete or release disturb the event that took its object over", async () => {
      const store = ordered(makeStore());
      const object = unique();
      const late = await claimAt(store, `${object}-2`, object, 2, LEASE_MS);
      const next = tokenOf(
        await afterExpiry(options, "busy", () => store.claimInOrder(`${object}-3`, LEASE_MS, at(object, 3), 10_000)),
      );
      expect(await store.renew(`${object}-2`, late, 10_000, at(object, 2))).toBe(false);
      expect(await store.completeInOrder(`${object}-2`, late, 10_000, at(object, 2))).toBe(false);
      expect(await store.releaseInOrder(`${object}-2`, late, at(object, 2))).toBe(false);
      expect(await store.renew(`${object}-3`, next, 10_000, at(object, 3))).toBe(true);
      expect(await store.claimInOrder(`${object}-4`, 10_000, at(object, 4), 10_000)).toEqual({ state: "busy" });
      expect(await store.completeInOrder(`${object}-3`, next, 10_000, at(object, 3))).toBe(true);
      expect(await store.claimInOrder(`${object}-2`, 10_000, at(object, 2), 10_000)).toEqual({ state: "stale" });
    });

    it("keeps order for objects of 3,000 and 10,000 characters, each apart from the next", async () => {
      const store = ordered(makeStore());
      const run = unique();
      for (const length of [3000, 10_000]) {
        const long = run + noise(length - run.length - 1);
        const object = `${long}o`;
        const twin = `${long}p`;
        const event = (n: number) => `${object}${n}`;
        await store.completeInOrder(event(2), await claimAt(store, event(2), object, 2), 10_000, at(object, 2));
        expect(await store.claimInOrder(event(1), 10_000, at(object, 1), 10_000)).toEqual({ state: "stale" });
        expect(await store.claimInOrder(event(1), 10_000, at(object, 1), 10_000)).toEqual({ state: "done" });
        expect(await store.claimInOrder(`${event(1)}-twin`, 10_000, at(twin, 1), 10_000)).toMatchObject({
          state: "claimed",
        });
      }
    });

    it("forgets a handled position after its TTL", async () => {
      const store = ordered(makeStore());
      const object = unique();
      await store.completeInOrder(
        `${object}-2`,
        await claimAt(store, `${object}-2`, object, 2),
        LEASE_MS,
        at(object, 2),
      );
      expect(await store.claimInOrder(`${object}-1`, 10_000, at(object, 1), LEASE_MS)).toEqual({ state: "stale" });
      // Each try has a key of its own: a stale answer marks its key done.
      let tries = 0;
      const claim = await afterExpiry(options, "stale", () =>
        store.claimInOrder(`${object}-0-${tries++}`, 10_000, at(object, 0), 10_000),
      );
      expect(claim).toMatchObject({ state: "claimed" });
    });

    it("gives one object to exactly one of many claims racing from two instances", async () => {
      const first = ordered(makeStore());
      const second = ordered(options.twin(first));
      const object = unique();
      const claims = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? first : second).claimInOrder(`${object}-${i}`, 10_000, at(object, i + 1), 10_000),
        ),
      );
      expect(claims.filter((claim) => claim.state === "claimed")).toHaveLength(1);
      expect(claims.filter((claim) => claim.state === "busy")).toHaveLength(39);
      const winner = claims.findIndex((claim) => claim.state === "claimed");
      const token = (claims[winner] as { token: string }).token;
      const owner = winner % 2 ? first : second;
      const other = winner % 2 ? second : first;
      expect(await other.completeInOrder(`${object}-${winner}`, token, 10_000, at(object, winner + 1))).toBe(true);
      expect(await owner.claimInOrder(`${object}-${winner}`, 10_000, at(object, winner + 1), 10_000)).toEqual({
        state: "done",
      });
    });

    it("property: serial events of one object run exactly when past every position handled before", async () => {
      const store = ordered(makeStore());
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.integer({ min: -3, max: 12 }), fc.boolean()), { minLength: 1, maxLength: 20 }),
          async (events) => {
            const object = unique();
            let handled = Number.NEGATIVE_INFINITY;
            for (const [i, [position, succeeds]] of events.entries()) {
              const key = `${object}-${i}`;
              const claim = await store.claimInOrder(key, 10_000, at(object, position), 10_000);
              if (position <= handled) {
                expect(claim).toEqual({ state: "stale" });
                continue;
              }
              if (claim.state !== "claimed") throw new Error(`expected claimed, got ${claim.state}`);
              if (succeeds) {
                expect(await store.completeInOrder(key, claim.token, 10_000, at(object, position))).toBe(true);
                handled = position;
              } else {
                expect(await store.releaseInOrder(key, claim.token, at(object, position))).toBe(true);
              }
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    it("property: keeps every two different objects apart, lone surrogates and braces included", async () => {
      const store = ordered(makeStore());
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(nearStrings(), fc.tuple(anyString(), anyString()), fc.tuple(braces(), braces())),
          async ([a, b]) => {
            fc.pre(a !== b);
            const run = unique();
            const token = await claimAt(store, `${run}-a`, run + a, 1);
            expect(await store.claimInOrder(`${run}-b`, 10_000, at(run + b, 1), 10_000)).toMatchObject({
              state: "claimed",
            });
            expect(await store.completeInOrder(`${run}-a`, token, 10_000, at(run + a, 1))).toBe(true);
            expect(await store.claimInOrder(`${run}-c`, 10_000, at(run + b, 2), 10_000)).toEqual({ state: "busy" });
          },
        ),
        { numRuns: 100 },
      );
    });
  });
}

/** Strings of the characters that delimit a Redis Cluster hash tag. */
const braces = () => fc.string({ unit: fc.constantFrom("{", "}", "a", ":"), maxLength: 6 });
