import { describe, expect, it } from "vitest";
import { MemoryStore, messageStatusOrder } from "../src/entries";
import {
  type EngineOptionNames,
  pickWorkerOptions,
  type QueueWorkerOptions,
  resolveEnqueueOptions,
  type SharedQueueDefaults,
} from "../src/entries/dispatch";

const DEFAULTS = {
  timeoutMs: 5000,
  attempts: 5,
  retryDelaySeconds: 1,
  retryBackoff: "exponential",
  keepCompletedSeconds: 86_400,
  keepVerifiedBody: false,
  batch: false,
  concurrency: 1,
} as const satisfies SharedQueueDefaults;

const ENGINE: EngineOptionNames = {
  engine: "Engine",
  group: "engine",
  handles: ["client"],
  formerly: { delayMs: "`retryDelaySeconds`" },
};

describe("resolveEnqueueOptions", () => {
  it("fills in the package's defaults and keeps what was given", () => {
    expect(resolveEnqueueOptions({ attempts: 3, retryBackoff: "fixed" }, DEFAULTS, ENGINE)).toEqual({
      timeoutMs: 5000,
      attempts: 3,
      retryDelaySeconds: 1,
      retryBackoff: "fixed",
      keepCompletedSeconds: 86_400,
      keepVerifiedBody: false,
      batch: false,
    });
  });

  it("takes the engine's group, and refuses a former name naming what replaces it, or an unknown one", () => {
    expect(() => resolveEnqueueOptions({ engine: { x: 1 } } as object, DEFAULTS, ENGINE)).not.toThrow();
    expect(() => resolveEnqueueOptions({ delayMs: 10 } as object, DEFAULTS, ENGINE)).toThrow(
      new TypeError("enqueueTo: `delayMs` is now `retryDelaySeconds`"),
    );
    expect(() => resolveEnqueueOptions({ attemps: 3 } as object, DEFAULTS, ENGINE)).toThrow(
      new TypeError(
        "enqueueTo: `attemps` is not an option every engine takes (timeoutMs, attempts, retryDelaySeconds, " +
          "retryBackoff, keepCompletedSeconds, keepVerifiedBody, batch), if it is Engine's own, it goes in " +
          "`engine: { attemps }`",
      ),
    );
    expect(() => resolveEnqueueOptions({ priority: 1 } as object, DEFAULTS, { engine: "Plain" })).toThrow(
      /`priority` is not an option every engine takes .*, and Plain's enqueueTo has none of its own$/,
    );
    // An option set to undefined changes nothing, so it is not refused.
    expect(() => resolveEnqueueOptions({ attemps: undefined } as object, DEFAULTS, ENGINE)).not.toThrow();
  });

  it("refuses values out of range, the same for every engine", () => {
    const refused: [object, RegExp][] = [
      [{ attempts: 0 }, /attempts must be a positive whole number/],
      [{ timeoutMs: -1 }, /timeoutMs must be a positive whole number/],
      [{ keepCompletedSeconds: 1.5 }, /keepCompletedSeconds must be a positive whole number/],
      [{ retryDelaySeconds: -1 }, /retryDelaySeconds must be 0 or a positive whole number/],
      [{ retryDelaySeconds: 0.25 }, /retryDelaySeconds must be 0 or a positive whole number/],
      [{ retryBackoff: "linear" }, /retryBackoff must be "exponential" or "fixed"$/],
      [{ retryBackoff: true }, /retryBackoff must be "exponential" or "fixed" \(`true` is now "exponential"\)/],
      [{ keepVerifiedBody: "yes" }, /keepVerifiedBody must be true or false/],
    ];
    for (const [options, message] of refused) {
      expect(() => resolveEnqueueOptions(options, DEFAULTS, ENGINE)).toThrow(message);
    }
    expect(resolveEnqueueOptions({ retryDelaySeconds: 0 }, DEFAULTS, ENGINE).retryDelaySeconds).toBe(0);
  });
});

describe("pickWorkerOptions", () => {
  it("picks every option core's worker takes, and only those, so no engine lists them", () => {
    const core: Required<QueueWorkerOptions> = {
      logger: console,
      order: messageStatusOrder,
      store: new MemoryStore(),
      orderWaitMs: 10,
      leaseMs: 20,
      doneTtlMs: 30,
      transactions: { run: (work) => work(undefined, { query: async () => [] }) },
    };
    const options = { ...core, queue: "deliveries", concurrency: 4, client: {}, engine: { pollMs: 5 } };
    expect(pickWorkerOptions(options, DEFAULTS, ENGINE)).toEqual({
      queue: "deliveries",
      concurrency: 4,
      worker: core,
    });
    expect(pickWorkerOptions({ queue: "deliveries" }, DEFAULTS, ENGINE)).toEqual({
      queue: "deliveries",
      concurrency: 1,
      worker: {},
    });
  });

  it("refuses an option outside the shared ones, the handles and the group, and a queue or concurrency out of range", () => {
    expect(() => pickWorkerOptions({ queue: "q", pollMs: 5 } as object as { queue: string }, DEFAULTS, ENGINE)).toThrow(
      new TypeError(
        "createWorker: `pollMs` is not an option every engine takes (logger, order, store, orderWaitMs, leaseMs, " +
          "doneTtlMs, transactions, queue, concurrency), if it is Engine's own, it goes in `engine: { pollMs }`",
      ),
    );
    expect(() => pickWorkerOptions({ queue: "" }, DEFAULTS, ENGINE)).toThrow(/`queue` must be the name of the queue/);
    expect(() => pickWorkerOptions({ queue: "q", concurrency: 0 }, DEFAULTS, ENGINE)).toThrow(
      /concurrency must be a positive whole number/,
    );
  });
});
