import { MemoryStore } from "@tidings/core";
import { FaultyStore } from "../simulation/faulty-store";
import { AnswerGate, GatedStore } from "../simulation/stores";
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

// The gate real stores answer through in the simulator, its answers let through as they come: the store it wraps.
function pumped(gate: AnswerGate): AnswerGate {
  const hold = gate.hold.bind(gate);
  gate.hold = (ask) => {
    const answer = hold(ask);
    setImmediate(() => void gate.releaseOne());
    return answer;
  };
  return gate;
}

describeStoreContract(
  "GatedStore around MemoryStore, answers let through one at a time",
  () => new GatedStore(new MemoryStore({ now: () => clock }), pumped(new AnswerGate()), 1),
  {
    passTime: (ms) => {
      clock += ms;
    },
    twin: (store) => store,
  },
);
