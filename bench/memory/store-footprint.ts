import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { MemoryStore } from "@tidings/core";
import { type Summary, summarize } from "../lib/stats";

/** Heap bytes per remembered (done) key, beyond the key string, in the MemoryStore and in a bare Map. */
export interface StoreFootprint {
  keys: number;
  memoryStore: Summary;
  /** `Map<string, true>`: the least any in-process dedup can hold per key. */
  bareMap: Summary;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Fills a fresh holder with `count` done keys; the key strings exist (and are hashed) before the baseline is read. */
function bytesPerKey(count: number, round: number, fill: (keys: readonly string[]) => unknown): number {
  const keys = Array.from({ length: count }, (_, index) => `event:evt_footprint_${round}_${index}`);
  // Hashing flattens each key once; doing it here keeps that copy out of the measured difference.
  new Set(keys);
  const before = heapAfterGc();
  const holder = fill(keys);
  const bytes = heapAfterGc() - before;
  if (holder === undefined) throw new Error("the holder must stay alive until the heap is read");
  return bytes / count;
}

export function measureStoreFootprint(count: number, rounds: number): StoreFootprint {
  const store: number[] = [];
  const map: number[] = [];
  for (let round = 0; round < rounds; round++) {
    store.push(
      bytesPerKey(count, round, (keys) => {
        const memory = new MemoryStore({ maxEntries: count });
        for (const key of keys) {
          const claim = memory.claim(key, 60_000);
          if (claim.state !== "claimed") throw new Error(`${key} was not claimable`);
          memory.complete(key, claim.token, 86_400_000);
        }
        return memory;
      }),
    );
    map.push(bytesPerKey(count, round, (keys) => new Map(keys.map((key) => [key, true]))));
  }
  return { keys: count, memoryStore: summarize(store), bareMap: summarize(map) };
}
