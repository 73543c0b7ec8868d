import { MemoryStore } from "@tidings/core";
import { describeStoreContract } from "./contract";

// One clock for every store the suite makes: the order tests let time pass without waiting for it.
let offset = 0;
const now = () => Date.now() + offset;

describeStoreContract("MemoryStore", () => new MemoryStore({ now }), {
  passTime: async (ms) => {
    offset += ms;
  },
  // One process holds one MemoryStore: a second receiver there shares the instance.
  twin: (store) => store,
});
