import { MemoryStore } from "@tidings/core";
import { FaultyStore } from "../simulation/faulty-store";
import { describeStoreContract } from "./contract";

// The simulator's fault-injecting store, with no fault planned, must be the store it wraps: the same contract.
let clock = Date.now();

describeStoreContract(
  "FaultyStore around MemoryStore, no faults",
  () => new FaultyStore(new MemoryStore({ now: () => clock })),
  {
    passTime: (ms) => {
      clock += ms;
    },
    twin: (store) => store,
  },
);

// With hooks that only observe and make every call wait a turn, as the simulator's scheduler does, it still is.
describeStoreContract(
  "FaultyStore around MemoryStore, every call a turn late",
  () => new FaultyStore(new MemoryStore({ now: () => clock }), { before: () => Promise.resolve(), observe() {} }),
  {
    passTime: (ms) => {
      clock += ms;
    },
    twin: (store) => store,
  },
);
