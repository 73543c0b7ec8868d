import { MemoryStore } from "@tidings/core";
import { expect, it } from "vitest";

const quiet = { error() {}, warn() {} };

function clockedStore(maxEntries: number) {
  let now = 1_000_000;
  const store = new MemoryStore({ maxEntries, minRetentionMs: 1000, now: () => now, logger: quiet });
  return { store, pass: (ms: number) => (now += ms) };
}

function handle(store: MemoryStore, key: string, object: string, position: number): void {
  const claim = store.claimInOrder(key, 10_000, { object, position }, 60_000);
  if (claim.state !== "claimed") throw new Error(`${key}: ${claim.state}`);
  store.completeInOrder(key, claim.token, 60_000, { object, position });
}

it("MemoryStore bounds its ordered objects: full of recent positions it refuses, then forgets the oldest first", () => {
  const { store, pass } = clockedStore(32);
  for (let i = 0; i < 32; i++) handle(store, `event:${i}`, `msg_${i}`, 5);
  expect(() => store.claimInOrder("event:new", 10_000, { object: "msg_new", position: 1 }, 60_000)).toThrow(
    expect.objectContaining({ code: "store_full" }),
  );
  pass(2000);
  for (let i = 32; i < 64; i++) handle(store, `event:${i}`, `msg_${i}`, 5);
  expect(store.size).toBeLessThanOrEqual(32);
  pass(2000);
  // The oldest positions went first, to make room for the second 32; the latest is still known.
  expect(store.claimInOrder("event:again-0", 10_000, { object: "msg_0", position: 1 }, 60_000)).toMatchObject({
    state: "claimed",
  });
  expect(store.claimInOrder("event:again-63", 10_000, { object: "msg_63", position: 1 }, 60_000)).toEqual({
    state: "stale",
  });
});

it("MemoryStore never forgets an object whose lease is held, however full", () => {
  const { store, pass } = clockedStore(16);
  const held = store.claimInOrder("event:held", 60_000, { object: "msg_held", position: 2 }, 60_000);
  expect(held.state).toBe("claimed");
  pass(2000);
  for (let i = 0; i < 40; i++) {
    handle(store, `event:${i}`, `msg_${i}`, 1);
    pass(100);
  }
  expect(store.claimInOrder("event:next", 60_000, { object: "msg_held", position: 3 }, 60_000)).toEqual({
    state: "busy",
  });
});
