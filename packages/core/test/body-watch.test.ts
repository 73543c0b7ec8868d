import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BodyWatch, READING_BODIES, startOwnTimer } from "../src/body/body-watch";
import { createReceiver, type WebhookVerificationError } from "../src/entries";
import { Admission } from "../src/receiver/admission";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A watch on its own timer (the shared wheel adds up to an eighth of the duration), and what it was cut with. */
function watched(limits: ConstructorParameters<typeof BodyWatch>[0]) {
  const cuts: WebhookVerificationError[] = [];
  const watch = new BodyWatch(limits, (error) => cuts.push(error), startOwnTimer);
  return { watch, cuts, codes: () => cuts.map((error) => error.code) };
}

describe("a body's minimum rate", () => {
  const limits = { maxBodyBytes: 1 << 20, bodyTimeoutMs: 60_000, minBodyBytesPerSecond: 240, bodyRateGraceMs: 5000 };

  it("cuts a body slower than the rate once the grace is over, with 408 body_too_slow", () => {
    const { watch, cuts, codes } = watched(limits);
    watch.received = 5 * 240 - 1;
    vi.advanceTimersByTime(4999);
    expect(cuts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(codes()).toEqual(["body_too_slow"]);
    expect(cuts[0]?.status).toBe(408);
    expect(cuts[0]?.message).toContain("minBodyBytesPerSecond");
  });

  it("checks again every grace period, on the average since the read began", () => {
    const { watch, codes } = watched(limits);
    watch.received = 5 * 240;
    vi.advanceTimersByTime(5000);
    expect(codes()).toEqual([]);
    watch.received = 10 * 240;
    vi.advanceTimersByTime(5000);
    expect(codes()).toEqual([]);
    // A body that keeps up for 10 s, then stalls, is cut at the next check.
    vi.advanceTimersByTime(5000);
    expect(codes()).toEqual(["body_too_slow"]);
  });

  it("still ends at bodyTimeoutMs, however fast the body arrives", () => {
    const { watch, codes } = watched({ ...limits, bodyTimeoutMs: 12_000 });
    watch.received = 1 << 19;
    vi.advanceTimersByTime(11_999);
    expect(codes()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(codes()).toEqual(["body_timeout"]);
  });

  it("is off at 0: only bodyTimeoutMs applies", () => {
    const { codes } = watched({ ...limits, minBodyBytesPerSecond: 0 });
    vi.advanceTimersByTime(59_999);
    expect(codes()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(codes()).toEqual(["body_timeout"]);
  });

  it("never fires once cleared", () => {
    const { watch, codes } = watched(limits);
    watch.clear();
    watch.clear();
    vi.advanceTimersByTime(120_000);
    expect(codes()).toEqual([]);
  });
});

describe("a Receiver's delivery slots", () => {
  const limits = { maxBodyBytes: 1 << 20, bodyTimeoutMs: 60_000, minBodyBytesPerSecond: 240, bodyRateGraceMs: 5000 };

  function admissionOf(max: number) {
    const admission = new Admission(max);
    const read = () => watched({ ...limits, [READING_BODIES]: admission });
    return { admission, read };
  }

  it("gives a new delivery the slot of the body furthest behind the rate, grace or not", () => {
    const { admission, read } = admissionOf(3);
    const bodies = [read(), read(), read()];
    for (const _ of bodies) expect(admission.take()).toBe(true);
    vi.advanceTimersByTime(1000);
    // 240 bytes were due from each: one is in step, one 200 behind, one 40 behind.
    [240, 40, 200].forEach((received, n) => {
      (bodies[n] as ReturnType<typeof read>).watch.received = received;
    });
    expect(admission.take()).toBe(true);
    expect(bodies.map(({ codes }) => codes())).toEqual([[], ["body_too_slow"], []]);
    expect(bodies[1]?.cuts[0]?.message).toContain("maxConcurrentDeliveries");
    expect(admission.take()).toBe(true);
    expect(bodies.map(({ codes }) => codes())).toEqual([[], ["body_too_slow"], ["body_too_slow"]]);
    // The one left keeps up: the next delivery is refused.
    expect(admission.take()).toBe(false);
  });

  it("never cuts a body for another while it keeps up, nor one that is done", () => {
    const { admission, read } = admissionOf(2);
    const keeping = read();
    const done = read();
    admission.take();
    admission.take();
    vi.advanceTimersByTime(1000);
    keeping.watch.received = 240;
    done.watch.clear();
    expect(admission.take()).toBe(false);
    expect([...keeping.codes(), ...done.codes()]).toEqual([]);
  });

  it("admits through admit() slots that come back once, however often released", async () => {
    const receiver = createReceiver({ secret: "whsec_slots", maxConcurrentDeliveries: 1, logger: { error() {} } });
    const slot = receiver.admit();
    expect(slot.admitted).toBe(true);
    const refused = receiver.admit();
    expect(refused.admitted).toBe(false);
    const overloaded = await receiver.handle({ headers: {}, readBody: () => new Uint8Array(), slot: refused });
    expect([overloaded.status, overloaded.code]).toEqual([503, "overloaded"]);
    slot.release();
    slot.release();
    refused.release();
    const first = receiver.admit();
    expect([first.admitted, receiver.admit().admitted]).toEqual([true, false]);
    // handle returns the slot it was given when it answers.
    await receiver.handle({ headers: {}, readBody: () => new Uint8Array(), slot: first });
    expect(receiver.admit().admitted).toBe(true);
  });
});
