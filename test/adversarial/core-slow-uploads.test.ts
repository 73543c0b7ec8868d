import { createReceiver, type Receiver } from "@tidings/core";
import type { IncomingRequest } from "@tidings/core/adapter";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, eventBody, SECRET } from "../conformance/deliveries";
import { openSlowUpload, type SlowUpload } from "../conformance/partial-body";
import { type RunningApp, WEBHOOK_PATH } from "../conformance/target";
import { SOCKET_TARGETS } from "../conformance/targets";

const SLOTS = 256;
const SIGNED = 200;
/** An unsigned upload announcing 64 KiB and sending a byte a second: what costs an attacker nothing. */
const UNSIGNED = { method: "POST", headers: { "content-type": "application/json" }, body: new Uint8Array(65_536) };

let running: RunningApp | undefined;
const uploads = new Set<SlowUpload>();
afterEach(async () => {
  for (const upload of uploads) upload.destroy();
  uploads.clear();
  await running?.close();
  running = undefined;
});

/** Counts the requests that reached the Receiver: by `admit()` (Fastify, before its parser) or by `handle()`. */
function countArrivals(receiver: Receiver): () => number {
  let arrived = 0;
  const admit = receiver.admit.bind(receiver);
  const handle = receiver.handle.bind(receiver);
  receiver.admit = () => {
    arrived++;
    return admit();
  };
  receiver.handle = (request: IncomingRequest) => {
    if (!request.slot) arrived++;
    return handle(request);
  };
  return () => arrived;
}

const UPLOADS_FALL_BEHIND_MS = 20;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

function quietReceiver(options: { minBodyBytesPerSecond?: number; bodyRateGraceMs?: number } = {}) {
  const receiver = createReceiver({ secret: SECRET, logger: { error() {}, warn() {} }, ...options });
  let handled = 0;
  receiver.onAny(() => {
    handled++;
  });
  return { receiver, handled: () => handled };
}

describe.each(SOCKET_TARGETS)("$name: slow uploads", (target) => {
  it(`${SLOTS} unsigned uploads at 1 byte/s, reopened as soon as they end, keep no signed delivery out`, async () => {
    const { receiver, handled } = quietReceiver();
    const arrivals = countArrivals(receiver);
    const app = await target.start(receiver);
    running = app;
    const attackerAnswers = new Map<string, number>();
    let attacking = true;
    const attack = () => {
      const upload = openSlowUpload(app.url as string, WEBHOOK_PATH, UNSIGNED, 1, 1000);
      uploads.add(upload);
      void upload.answer.then((answer) => {
        uploads.delete(upload);
        const key = answer ? `${answer.status} ${JSON.parse(answer.body).error?.code}` : "no answer";
        attackerAnswers.set(key, (attackerAnswers.get(key) ?? 0) + 1);
        if (attacking) setImmediate(attack);
      });
    };
    for (let n = 0; n < SLOTS; n++) attack();
    // Every slot is held by an upload before the first signed delivery is sent, and every upload has fallen behind
    // the minimum rate: one byte sent, then none for longer than a byte takes at 240 B/s (about 4 ms). An upload a
    // millisecond old has sent at a rate above the minimum, which only real time changes.
    await until(() => arrivals() >= SLOTS);
    await new Promise((resolve) => setTimeout(resolve, UPLOADS_FALL_BEHIND_MS));

    const statuses = new Map<number, number>();
    const sender = async () => {
      for (let sent = 0; sent < SIGNED / 4; sent++) {
        const { status } = await app.send(delivery(eventBody()));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all([sender(), sender(), sender(), sender()]);
    attacking = false;

    const accepted = statuses.get(200) ?? 0;
    expect(accepted, `signed deliveries answered ${JSON.stringify([...statuses])}`).toBeGreaterThanOrEqual(
      0.95 * SIGNED,
    );
    expect(handled()).toBe(accepted);
    // The uploads were answered only as too slow (or shed, while no other body was behind), never taken.
    expect([...attackerAnswers.keys()].filter((key) => !["408 body_too_slow", "503 overloaded"].includes(key))).toEqual(
      [],
    );
    // Each one cut gave its slot to a delivery that found them all taken.
    expect(attackerAnswers.get("408 body_too_slow") ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it("answers a delivery past maxConcurrentDeliveries 503 before reading its body, also where the framework parses it", async () => {
    const receiver = createReceiver({
      secret: SECRET,
      maxConcurrentDeliveries: 1,
      minBodyBytesPerSecond: 0,
      logger: { error() {}, warn() {} },
    });
    const arrivals = countArrivals(receiver);
    const app = await target.start(receiver);
    running = app;
    const holding = openSlowUpload(app.url as string, WEBHOOK_PATH, UNSIGNED, 1);
    uploads.add(holding);
    await until(() => arrivals() >= 1);
    // Its body never comes: only an answer given before reading it can arrive.
    const shed = openSlowUpload(app.url as string, WEBHOOK_PATH, UNSIGNED, 1);
    uploads.add(shed);
    const answer = await shed.answer;
    expect([answer?.status, JSON.parse(answer?.body ?? "{}").error?.code]).toEqual([503, "overloaded"]);
  }, 60_000);

  it("cuts a lone upload slower than minBodyBytesPerSecond once bodyRateGraceMs passed, and keeps one that keeps up", async () => {
    const { receiver, handled } = quietReceiver({ minBodyBytesPerSecond: 240, bodyRateGraceMs: 100 });
    const app = await target.start(receiver);
    running = app;
    const slow = openSlowUpload(app.url as string, WEBHOOK_PATH, UNSIGNED, 1, 1000);
    uploads.add(slow);
    const answer = await slow.answer;
    expect([answer?.status, JSON.parse(answer?.body ?? "{}").error?.code]).toEqual([408, "body_too_slow"]);

    // A signed body a byte every 10 ms is ~100 bytes/s: many times a 1 byte/s minimum, checked every 100 ms.
    const { receiver: lenient, handled: lenientHandled } = quietReceiver({
      minBodyBytesPerSecond: 1,
      bodyRateGraceMs: 100,
    });
    await app.close();
    const second = await target.start(lenient);
    running = second;
    const steady = openSlowUpload(second.url as string, WEBHOOK_PATH, delivery(eventBody()), 1, 10);
    uploads.add(steady);
    expect((await steady.answer)?.status).toBe(200);
    expect([handled(), lenientHandled()]).toEqual([0, 1]);
  }, 60_000);
});
