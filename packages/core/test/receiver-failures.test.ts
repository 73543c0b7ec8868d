import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { afterFakeTime, until } from "../../../test/support/wait";
import { createReceiver, MemoryStore, sign } from "../src/entries";
import { bodyAlreadyConsumed } from "../src/entries/adapter";
import { bodyOf, event, quietLogger, SECRET, signed } from "./receiver-fixtures";

const throwingLogger = {
  error() {
    throw new Error("log sink down");
  },
  warn() {
    throw new Error("log sink down");
  },
};

/**
 * Resolves on the next turn of the event loop: the microtasks before it have run, and Node has reported any rejection
 * they left unhandled.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A MemoryStore that counts the claims the Receiver settled (marked done or released): when a late handler is over. */
class SettleCountingStore extends MemoryStore {
  settled = 0;
  override complete(key: string, token: string, ttlMs: number): boolean {
    this.settled++;
    return super.complete(key, token, ttlMs);
  }
  override release(key: string, token: string): boolean {
    this.settled++;
    return super.release(key, token);
  }
}

const consumedRequest = {
  method: "POST",
  headers: {},
  readBody: () => {
    throw bodyAlreadyConsumed("Mount it first.");
  },
};

describe("Receiver failures of the app's own code", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  it("logs an async onError that rejects instead of leaving the rejection unhandled", async () => {
    const logged: unknown[] = [];
    const receiver = createReceiver({ secret: SECRET, logger: { error: (...values) => logged.push(values[0]) } });
    receiver.onError(async () => {
      throw new Error("metrics service down");
    });
    const result = await receiver.receive(signed(event(), { secret: "whsec_other" }));
    await nextTurn();
    expect(result.status).toBe(400);
    expect(unhandled).toEqual([]);
    expect(logged).toEqual([
      expect.objectContaining({
        message: "[tidings] a listener failed",
        code: "listener_failed",
        err: expect.objectContaining({ message: "metrics service down" }),
      }),
    ]);
  });

  it("never rejects when the logger throws, whatever it was logging", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: throwingLogger });
    receiver.on("message.delivered", () => {
      throw new Error("handler down");
    });
    expect((await receiver.handle(consumedRequest)).status).toBe(500);
    expect((await receiver.receive(signed(event()))).status).toBe(500);
    const storeDown = createReceiver({
      secret: SECRET,
      logger: throwingLogger,
      store: { claim: () => Promise.reject(new Error("down")), complete: () => true, release: () => true },
    });
    expect((await storeDown.receive(signed(event()))).status).toBe(503);
    receiver.onError(() => {
      throw new Error("onError down too");
    });
    expect((await receiver.receive(signed(event({ id: "evt_2" })))).status).toBe(500);
    await nextTurn();
    expect(unhandled).toEqual([]);
  });

  it("answers 503 handler_timeout, keeps the claim until the handler settles, then remembers the event", async () => {
    const store = new SettleCountingStore();
    const receiver = createReceiver({ secret: SECRET, store, logger: quietLogger, handlerTimeoutMs: 30 });
    let finish: () => void = () => {};
    let runs = 0;
    const codes: string[] = [];
    receiver.onError((_error, info) => codes.push(info.code));
    receiver.on("message.delivered", () => {
      runs++;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const delivery = signed(event({ id: "evt_slow" }));
    const first = await afterFakeTime(30, () => receiver.receive(delivery));
    expect([first.status, bodyOf(first).error?.code, first.headers["retry-after"]]).toEqual([
      503,
      "handler_timeout",
      "5",
    ]);
    expect(codes).toEqual(["handler_timeout"]);
    expect(bodyOf(await receiver.receive(delivery)).error?.code).toBe("delivery_in_progress");
    expect(store.settled).toBe(0);
    finish();
    await until(() => store.settled > 0, "the claim to be settled");
    expect(bodyOf(await receiver.receive(delivery))).toEqual({ received: true, duplicate: true });
    expect(runs).toBe(1);
  });

  it("releases the claim when a timed-out handler finally fails, so the retry runs it", async () => {
    const store = new SettleCountingStore();
    const receiver = createReceiver({ secret: SECRET, store, logger: quietLogger, handlerTimeoutMs: 30 });
    let fail: (error: Error) => void = () => {};
    let runs = 0;
    receiver.on("message.delivered", () => {
      runs++;
      if (runs > 1) return;
      return new Promise<void>((_resolve, reject) => {
        fail = reject;
      });
    });
    const delivery = signed(event({ id: "evt_late_failure" }));
    expect((await afterFakeTime(30, () => receiver.receive(delivery))).status).toBe(503);
    expect(store.settled).toBe(0);
    fail(new Error("gave up"));
    await until(() => store.settled > 0, "the claim to be released");
    expect(bodyOf(await receiver.receive(delivery))).toEqual({ received: true });
    expect(runs).toBe(2);
  });

  it("refuses at setup a handler timeout that is not below the lease", () => {
    expect(() => createReceiver({ secret: SECRET, leaseMs: 1000, handlerTimeoutMs: 1000 })).toThrow(/below leaseMs/);
    expect(() => createReceiver({ secret: SECRET, bodyTimeoutMs: 0 })).toThrow(TypeError);
    expect(() => createReceiver({ secret: SECRET, leaseMs: 1000 })).not.toThrow();
  });
});

describe("Receiver dedup details", () => {
  it("treats a numeric event id as the id: a resend signed at another time is a duplicate", async () => {
    const keys: string[] = [];
    const receiver = createReceiver({ secret: SECRET }).on("message.delivered", (_event, context) => {
      keys.push(context.deliveryKey);
    });
    const body = JSON.stringify(event({ id: 42 }));
    const now = Math.floor(Date.now() / 1000);
    const first = { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, SECRET) } };
    const resend = { ...first, headers: { "service-signature": sign(body, SECRET, { timestamp: now - 60 }) } };
    expect(bodyOf(await receiver.receive(first))).toEqual({ received: true });
    expect(bodyOf(await receiver.receive(resend))).toEqual({ received: true, duplicate: true });
    expect(keys).toEqual(["event:42"]);
  });

  it("does not tell the sender how many secrets are configured, but tells onError", async () => {
    const details: unknown[] = [];
    const receiver = createReceiver({ secret: ["whsec_a", "whsec_b"] });
    receiver.onError((_error, info) => details.push(info.details));
    const result = await receiver.receive(signed(event(), { secret: "whsec_c" }));
    expect(bodyOf(result).error?.code).toBe("signature_mismatch");
    expect(result.body).not.toMatch(/secret\(s\)|\b2\b/);
    expect(details).toEqual([{ secretsConfigured: 2, secretsExpired: 0 }]);
  });

  it("answers 503 store_full when its MemoryStore is full of protected keys, warning once, not per delivery", async () => {
    const warnings: unknown[] = [];
    const errors: unknown[] = [];
    const store = new MemoryStore({ maxEntries: 2, logger: { error() {}, warn: (line) => warnings.push(line) } });
    const receiver = createReceiver({ secret: SECRET, store, logger: { error: (message) => errors.push(message) } });
    for (const id of ["evt_a", "evt_b"]) expect((await receiver.receive(signed(event({ id })))).status).toBe(200);
    for (const id of ["evt_c", "evt_d", "evt_e"]) {
      const refused = await receiver.receive(signed(event({ id })));
      expect([refused.status, bodyOf(refused).error?.code]).toEqual([503, "store_full"]);
    }
    expect(bodyOf(await receiver.receive(signed(event({ id: "evt_a" }))))).toEqual({ received: true, duplicate: true });
    expect(warnings).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
