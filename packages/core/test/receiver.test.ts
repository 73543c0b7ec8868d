import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { afterFakeTime } from "../../../test/support/wait";
import { createReceiver, type DeliveryStore, MemoryStore, sign } from "../src/entries";
import type { ClaimResult } from "../src/entries/adapter";
import { bodyOf, event, quietLogger, SECRET, signed } from "./receiver-fixtures";

describe("createReceiver setup", () => {
  it("throws TypeError at setup for an empty secret or bad limits, not per delivery", () => {
    expect(() => createReceiver({ secret: "" })).toThrow(TypeError);
    expect(() => createReceiver({ secret: [] })).toThrow(TypeError);
    expect(() => createReceiver({ secret: SECRET, maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => createReceiver({ secret: SECRET, toleranceSeconds: -1 })).toThrow(TypeError);
    expect(() => createReceiver({ secret: SECRET, doneTtlMs: 1000 })).toThrow(/doneTtlMs must be ≥ the tolerance/);
  });
});

describe("Receiver.receive", () => {
  it("runs every handler of the type, then onAny, and answers 200", async () => {
    const calls: string[] = [];
    const receiver = createReceiver({ secret: SECRET })
      .on("message.delivered", (e) => {
        calls.push(`first:${e.data.id}`);
      })
      .on(["message.delivered", "message.failed"], (e) => {
        calls.push(`second:${e.data.status}`);
      })
      .onAny((_e, context) => {
        calls.push(`any:${context.type}`);
      });
    const result = await receiver.receive(signed(event()));
    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toMatch(/^application\/json/);
    expect(calls).toEqual(["first:msg_1", "second:delivered", "any:message.delivered"]);
  });

  it("gives handlers the verified context", async () => {
    let seen: unknown;
    const receiver = createReceiver({ secret: ["old", SECRET] }).on("message.sent", (_e, context) => {
      seen = context;
    });
    const delivery = signed(event({ type: "message.sent", id: "evt_ctx" }));
    await receiver.receive(delivery);
    expect(seen).toMatchObject({
      type: "message.sent",
      deliveryKey: "event:evt_ctx",
      secretIndex: 1,
      verifiedBody: delivery.rawBody,
      headers: delivery.headers,
    });
  });

  it("reads headers from a Web Headers object too", async () => {
    const receiver = createReceiver({ secret: SECRET });
    const delivery = signed(event());
    const result = await receiver.receive({ rawBody: delivery.rawBody, headers: new Headers(delivery.headers) });
    expect(result.status).toBe(200);
  });

  it("keys deliveries without an id on the matched signature, which extra or reordered v1 values cannot change", async () => {
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET }).on("message.delivered", () => {
      runs++;
    });
    const { id: _omitted, ...withoutId } = event();
    const delivery = signed(withoutId);
    const [t, v1] = (delivery.headers["service-signature"] as string).split(",");
    expect(bodyOf(await receiver.receive(delivery))).toEqual({ received: true });
    const disguised = { ...delivery, headers: { "service-signature": `v1=${"a".repeat(64)},${v1},${t}` } };
    expect(bodyOf(await receiver.receive(disguised))).toEqual({ received: true, duplicate: true });
    expect(runs).toBe(1);
  });

  it("treats a retry of the same event id, signed anew, as a duplicate", async () => {
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET }).on("message.delivered", () => {
      runs++;
    });
    await receiver.receive(signed(event({ id: "evt_same" })));
    const later = sign(JSON.stringify(event({ id: "evt_same" })), SECRET, {
      timestamp: Math.floor(Date.now() / 1000) + 5,
    });
    const result = await receiver.receive(signed(event({ id: "evt_same" }), { signature: later }));
    expect(bodyOf(result).duplicate).toBe(true);
    expect(runs).toBe(1);
  });

  it("answers 500 when any handler throws, after letting the others run, and releases the claim", async () => {
    const ran: string[] = [];
    let failNext = true;
    const receiver = createReceiver({ secret: SECRET, logger: quietLogger })
      .on("message.delivered", () => {
        ran.push("ok");
      })
      .on("message.delivered", async () => {
        if (failNext) {
          failNext = false;
          throw new Error("secret database password in message");
        }
      });
    const first = await receiver.receive(signed(event()));
    expect([first.status, bodyOf(first).error?.code]).toEqual([500, "handler_failed"]);
    expect(first.body).not.toContain("password");
    const retry = await receiver.receive(signed(event()));
    expect(bodyOf(retry)).toEqual({ received: true });
    expect(ran).toEqual(["ok", "ok"]);
  });

  it("reports failures to onError, including rejected deliveries, and survives a throwing onError", async () => {
    const reported: [string, number][] = [];
    const receiver = createReceiver({ secret: SECRET, logger: quietLogger })
      .onError(() => {
        throw new Error("broken error handler");
      })
      .onError((_error, info) => {
        reported.push([info.code, info.status]);
      });
    const tampered = { ...signed(event()), rawBody: new TextEncoder().encode("{}") };
    expect((await receiver.receive(tampered)).status).toBe(400);
    expect(reported).toEqual([["signature_mismatch", 400]]);
  });

  it("logs failures of ours to the logger when nobody subscribed, but not rejected deliveries", async () => {
    const logged: unknown[][] = [];
    const receiver = createReceiver({ secret: SECRET, logger: { error: (...values) => logged.push(values) } });
    receiver.on("message.delivered", () => {
      throw new Error("boom");
    });
    await receiver.receive(signed(event(), { secret: "wrong" }));
    expect(logged).toHaveLength(0);
    await receiver.receive(signed(event()));
    expect(logged).toEqual([
      [
        expect.objectContaining({
          code: "handler_failed",
          status: 500,
          type: "message.delivered",
          err: expect.objectContaining({ message: "boom" }),
        }),
      ],
    ]);
  });

  it("answers 500 body_already_parsed when handed a parsed object instead of the raw bytes", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: quietLogger });
    const delivery = signed(event());
    const parsed = JSON.parse(new TextDecoder().decode(delivery.rawBody)) as unknown as Uint8Array;
    const result = await receiver.receive({ rawBody: parsed, headers: delivery.headers });
    expect([result.status, bodyOf(result).error?.code]).toEqual([500, "body_already_parsed"]);
  });

  it("rejects an event without a type as invalid_payload", async () => {
    const receiver = createReceiver({ secret: SECRET });
    const result = await receiver.receive(signed({ id: "evt_no_type" }));
    expect([result.status, bodyOf(result).error?.code]).toEqual([400, "invalid_payload"]);
  });

  it("uses typeOf and idOf for payloads shaped differently", async () => {
    const keys: string[] = [];
    const receiver = createReceiver<{ "delivery.ok": { kind: string; uid: string } }>({
      secret: SECRET,
      typeOf: (e) => e.kind as string,
      idOf: (e) => e.uid as string,
    }).on("delivery.ok", (e, context) => {
      keys.push(`${e.uid}@${context.deliveryKey}`);
    });
    expect((await receiver.receive(signed({ kind: "delivery.ok", uid: "u1" }))).status).toBe(200);
    expect(keys).toEqual(["u1@event:u1"]);
  });

  it("answers 503 and runs nothing when the store is unreachable, and recovers when it returns", async () => {
    let down = true;
    const memory = new MemoryStore();
    const flaky: DeliveryStore = {
      claim: async (key, lease) => {
        if (down) throw new Error("ECONNREFUSED");
        return memory.claim(key, lease);
      },
      complete: (key, token, ttl) => memory.complete(key, token, ttl),
      release: (key, token) => memory.release(key, token),
    };
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET, store: flaky, logger: quietLogger }).on(
      "message.delivered",
      () => {
        runs++;
      },
    );
    const unavailable = await receiver.receive(signed(event()));
    expect([unavailable.status, bodyOf(unavailable).error?.code]).toEqual([503, "store_unavailable"]);
    expect(unavailable.headers["retry-after"]).toBeDefined();
    expect(runs).toBe(0);
    down = false;
    expect((await receiver.receive(signed(event()))).status).toBe(200);
    expect(runs).toBe(1);
  });

  it("still answers 200 when marking done fails after the handlers ran, retrying it within half the lease", async () => {
    const memory = new MemoryStore();
    const codes: string[] = [];
    let attempts = 0;
    const receiver = createReceiver({
      secret: SECRET,
      leaseMs: 600,
      store: {
        claim: (key, lease) => memory.claim(key, lease),
        complete: () => {
          attempts++;
          return Promise.reject(new Error("lost connection"));
        },
        release: (key, token) => memory.release(key, token),
      },
    }).onError((_error, info) => codes.push(info.code));
    // The retries' backoff runs on the fake clock: however loaded the machine, they all fit in half the lease.
    vi.useFakeTimers();
    try {
      const answered = receiver.receive(signed(event()));
      await vi.advanceTimersByTimeAsync(600);
      expect((await answered).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(codes).toEqual(["store_unavailable"]);
    // The first try, then retries 50 and 150 ms later; the next (at 350 ms) would be past half the lease.
    expect(attempts).toBe(3);
  });

  it("marks the delivery done once the store is back (a failover), so a later copy is a duplicate", async () => {
    const memory = new MemoryStore();
    let failing = 3;
    const runs: string[] = [];
    const receiver = createReceiver({
      secret: SECRET,
      store: {
        claim: (key, lease) => memory.claim(key, lease),
        complete: (key, token, ttl) =>
          failing-- > 0 ? Promise.reject(new Error("master down")) : Promise.resolve(memory.complete(key, token, ttl)),
        release: (key, token) => memory.release(key, token),
      },
    }).onAny((_event, context) => {
      runs.push(context.deliveryKey);
    });
    // The done mark is tried again 50, 150 and 350 ms later, on the fake clock.
    expect((await afterFakeTime(350, () => receiver.receive(signed(event())))).status).toBe(200);
    expect(bodyOf(await receiver.receive(signed(event())))).toMatchObject({ duplicate: true });
    expect(runs).toHaveLength(1);
  });

  it("validates with a Standard Schema (zod): 400 with the issues, or the parsed output to the handler", async () => {
    const delivered = z.object({
      type: z.literal("message.delivered"),
      data: z.object({ id: z.string().startsWith("msg_"), deliveredAt: z.coerce.date() }),
    });
    const seen: Date[] = [];
    const receiver = createReceiver({ secret: SECRET, schemas: { "message.delivered": delivered } }).on(
      "message.delivered",
      (e) => {
        seen.push(e.data.deliveredAt);
      },
    );
    const bad = await receiver.receive(signed(event({ data: { id: "nope", deliveredAt: "x" } })));
    const error = bodyOf(bad).error;
    expect([bad.status, error?.code]).toEqual([400, "invalid_payload"]);
    expect(error?.issues).toEqual([
      expect.objectContaining({ path: "data.id" }),
      expect.objectContaining({ path: "data.deliveredAt" }),
    ]);
    const good = await receiver.receive(signed(event({ data: { id: "msg_9", deliveredAt: "2026-01-02T03:04:05Z" } })));
    expect(good.status).toBe(200);
    expect(seen[0]).toBeInstanceOf(Date);
  });

  it("settles in one microtask turn when verification, store and handlers are synchronous", async () => {
    const receiver = createReceiver({ secret: SECRET }).on("message.delivered", () => undefined);
    let settled = false;
    void receiver.receive(signed(event())).then(() => {
      settled = true;
    });
    let turns = 0;
    while (!settled) {
      await null;
      turns++;
    }
    // Each async function a result is handed up through would add two turns.
    expect(turns).toBe(1);
  });

  it("finds no schema for an event type named like an Object.prototype member", async () => {
    const types: string[] = [];
    const receiver = createReceiver({ secret: SECRET, schemas: { "message.delivered": z.object({}) } }).onAny(
      (_e, context) => {
        types.push(context.type);
      },
    );
    for (const type of ["constructor", "toString", "__proto__"]) {
      expect((await receiver.receive(signed(event({ id: `evt_${type}`, type })))).status).toBe(200);
    }
    expect(types).toEqual(["constructor", "toString", "__proto__"]);
  });
});

describe("Receiver.handle", () => {
  it("answers 405 with Allow: POST without reading the body", async () => {
    let read = false;
    const receiver = createReceiver({ secret: SECRET });
    const result = await receiver.handle({
      method: "GET",
      headers: {},
      readBody: async () => {
        read = true;
        return new Uint8Array();
      },
    });
    expect([result.status, result.headers.allow, read]).toEqual([405, "POST", false]);
  });

  it("hands the reader the receiver's limit and answers its errors", async () => {
    const limits: unknown[] = [];
    const receiver = createReceiver({
      secret: SECRET,
      maxBodyBytes: 1234,
      bodyTimeoutMs: 567,
      minBodyBytesPerSecond: 89,
      bodyRateGraceMs: 10,
      logger: quietLogger,
    });
    const result = await receiver.handle({
      method: "post",
      headers: {},
      readBody: async (given) => {
        limits.push(given);
        throw new Error("socket hang up");
      },
    });
    expect(limits).toMatchObject([
      { maxBodyBytes: 1234, bodyTimeoutMs: 567, minBodyBytesPerSecond: 89, bodyRateGraceMs: 10 },
    ]);
    expect([result.status, bodyOf(result).error?.code]).toEqual([500, "internal_error"]);
  });

  it("logs a consumed-body misconfiguration once, however many deliveries hit it", async () => {
    const logged: unknown[] = [];
    const { bodyAlreadyConsumed } = await import("../src/entries/adapter");
    const receiver = createReceiver({ secret: SECRET, logger: { error: (message) => logged.push(message) } });
    const consumed = {
      method: "POST",
      headers: {},
      readBody: () => Promise.reject(bodyAlreadyConsumed("Mount it first.")),
    };
    const first = await receiver.handle(consumed);
    await receiver.handle(consumed);
    expect([first.status, bodyOf(first).error?.code]).toEqual([500, "body_already_parsed"]);
    expect(logged).toEqual([{ message: expect.stringContaining("Mount it first."), code: "body_already_parsed" }]);
  });
});

/** A thenable that is not a native Promise, as some stores and client libraries return. */
function thenable<T>(settle: () => T): PromiseLike<T> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is the point of this helper
    then: (onFulfilled, onRejected) =>
      new Promise<T>((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(settle());
          } catch (error) {
            reject(error);
          }
        }),
      ).then(onFulfilled, onRejected),
  };
}

describe("Receiver: synchronous and asynchronous steps", () => {
  it("runs a delivery within the call when verification, store and handler answer synchronously", async () => {
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET }).on("message.delivered", () => {
      runs++;
    });
    const received = receiver.receive(signed(event({ id: "evt_sync_1" })));
    expect(runs).toBe(1);
    const { rawBody, headers } = signed(event({ id: "evt_sync_2" }));
    const handled = receiver.handle({ method: "POST", headers, readBody: () => rawBody });
    expect(runs).toBe(2);
    expect([(await received).status, (await handled).status]).toEqual([200, 200]);
  });

  it("waits for stores and handlers that answer with thenables, not only native promises", async () => {
    const memory = new MemoryStore();
    const store: DeliveryStore = {
      claim: (key, lease) => thenable(() => memory.claim(key, lease)) as Promise<ClaimResult>,
      complete: (key, token, ttl) => thenable(() => memory.complete(key, token, ttl)) as Promise<boolean>,
      release: (key, token) => thenable(() => memory.release(key, token)) as Promise<boolean>,
    };
    const steps: string[] = [];
    let fail = true;
    const receiver = createReceiver({ secret: SECRET, store, logger: quietLogger }).on(
      "message.delivered",
      () =>
        thenable(() => {
          steps.push(fail ? "handler failed" : "handler done");
          if (fail) throw new Error("downstream timeout");
        }) as Promise<void>,
    );
    const delivery = signed(event({ id: "evt_thenable" }));
    const failed = await receiver.receive(delivery);
    steps.push(`answered ${failed.status}`);
    fail = false;
    const retried = await receiver.receive(delivery);
    steps.push(`answered ${retried.status}`);
    const again = await receiver.receive(delivery);
    expect(steps).toEqual(["handler failed", "answered 500", "handler done", "answered 200"]);
    expect(bodyOf(again)).toEqual({ received: true, duplicate: true });
  });
});
