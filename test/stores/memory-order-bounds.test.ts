import { MemoryStore } from "@tidings/core";
import { expect, it } from "vitest";

const quiet = { error() {}, warn() {} };
const TTL_MS = 60_000;

function clockedStore(maxEntries: number) {
  let now = 1_000_000;
  const store = new MemoryStore({ maxEntries, minRetentionMs: 1000, now: () => now, logger: quiet });
  return { store, pass: (ms: number) => (now += ms) };
}

function handle(store: MemoryStore, key: string, object: string, position: number): void {
  const claim = store.claimInOrder(key, 10_000, { object, position }, TTL_MS);
  if (claim.state !== "claimed") throw new Error(`${key}: ${claim.state}`);
  store.completeInOrder(key, claim.token, TTL_MS, { object, position });
}

it("MemoryStore bounds its ordered objects: full of unexpired positions it refuses, then forgets the oldest first", () => {
  const { store, pass } = clockedStore(32);
  for (let i = 0; i < 32; i++) handle(store, `event:${i}`, `msg_${i}`, 5);
  const refused = expect.objectContaining({ code: "store_full" });
  expect(() => store.claimInOrder("event:new", 10_000, { object: "msg_new", position: 1 }, TTL_MS)).toThrow(refused);
  // Past minRetentionMs the done keys may go, but a position is kept for its whole TTL.
  pass(2000);
  expect(() => store.claimInOrder("event:new", 10_000, { object: "msg_new", position: 1 }, TTL_MS)).toThrow(refused);
  expect(store.claimInOrder("event:late-0", 10_000, { object: "msg_0", position: 1 }, TTL_MS)).toEqual({
    state: "stale",
  });
  pass(TTL_MS);
  for (let i = 32; i < 64; i++) handle(store, `event:${i}`, `msg_${i}`, 5);
  expect(store.size).toBeLessThanOrEqual(32);
  pass(2000);
  // The expired positions went, to make room for the second 32: msg_0 is a new object now, with no room for it.
  expect(store.claimInOrder("event:again-63", 10_000, { object: "msg_63", position: 1 }, TTL_MS)).toEqual({
    state: "stale",
  });
  expect(() => store.claimInOrder("event:again-0", 10_000, { object: "msg_0", position: 1 }, TTL_MS)).toThrow(refused);
  pass(TTL_MS);
  expect(store.claimInOrder("event:again-0", 10_000, { object: "msg_0", position: 1 }, TTL_MS)).toMatchObject({
    state: "claimed",
  });
});

it("MemoryStore never forgets an object whose lease is held, however full", () => {
  const { store, pass } = clockedStore(16);
  const held = store.claimInOrder("event:held", 10 * TTL_MS, { object: "msg_held", position: 2 }, TTL_MS);
  expect(held.state).toBe("claimed");
  for (let i = 0; i < 40; i++) {
    handle(store, `event:${i}`, `msg_${i}`, 1);
    pass(TTL_MS / 8);
  }
  expect(store.claimInOrder("event:next", 60_000, { object: "msg_held", position: 3 }, TTL_MS)).toEqual({
    state: "busy",
  });
});

it("MemoryStore forgets an object whose only event was released, so it takes no room", () => {
  const { store } = clockedStore(2);
  for (let i = 0; i < 10; i++) {
    const claim = store.claimInOrder(`event:${i}`, 10_000, { object: `msg_${i}`, position: 1 }, TTL_MS);
    if (claim.state !== "claimed") throw new Error(claim.state);
    expect(store.releaseInOrder(`event:${i}`, claim.token, { object: `msg_${i}`, position: 1 })).toBe(true);
  }
});
