import { describe, expect, it } from "vitest";
import { createReceiver, MemoryStore } from "../src/entries";
import type { Transactions } from "../src/entries/adapter";
import { QueueWorker, type QueueWorkerOptions } from "../src/entries/dispatch";

class TestWorker extends QueueWorker {
  constructor(options: QueueWorkerOptions) {
    super(options, { system: "test", queue: "deliveries" });
  }
  async close() {}
}

const transactions: Transactions<undefined> = { run: (work) => work(undefined, { query: async () => [] }) };
const JOIN = /`transactions` needs a store that can mark deliveries done inside the transaction; MemoryStore cannot/;

describe("transactions are refused at setup with a store that cannot join them", () => {
  it("by createReceiver: the default MemoryStore, or one given", () => {
    expect(() => createReceiver({ secret: "s", transactions })).toThrow(JOIN);
    expect(() => createReceiver({ secret: "s", store: new MemoryStore(), transactions })).toThrow(JOIN);
    expect(() => createReceiver({ secret: "s", transactions: {} as never })).toThrow(
      /`transactions` must be made by @tidings\/postgres/,
    );
  });

  it("by a worker: without a store, or with one that cannot join them", () => {
    expect(() => new TestWorker({ transactions })).toThrow(
      new TypeError(
        "createWorker: `transactions` needs `store`, which holds the done marks. Use PostgresStore (@tidings/postgres) on the same database as the transactions.",
      ),
    );
    expect(() => new TestWorker({ transactions, store: new MemoryStore() })).toThrow(JOIN);
  });
});
