import { MemoryStore } from "@tidings/core";
import { describeStoreContract } from "./contract";

// One clock for every store the suite makes, moved only by the tests: leases and TTLs expire when they say so.
let clock = Date.now();

describeStoreContract("MemoryStore", () => new MemoryStore({ now: () => clock }), {
  passTime: (ms) => {
    clock += ms;
  },
  // One process holds one MemoryStore: a second receiver there shares the instance.
  twin: (store) => store,
});
