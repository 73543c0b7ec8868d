import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver, sign } from "../src/entries";
import { readQueuedDelivery, toQueuedDelivery } from "../src/entries/dispatch";
import { idempotencyKeyOf } from "../src/receiver/idempotency-key";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// Any UTF-16 string, lone surrogates included: delivery keys hold whatever the event id held.
const text = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) });
const label = fc.option(text, { nil: undefined });

describe("idempotency keys", () => {
  it("are the same for one (delivery key, label), UUID-shaped: 36 characters every API takes", () => {
    fc.assert(
      fc.property(text, label, (key, scope) => {
        const first = idempotencyKeyOf(key, scope);
        expect(first).toMatch(UUID);
        expect(idempotencyKeyOf(key, scope)).toBe(first);
      }),
    );
  });

  it("differ across delivery keys and labels, no label and an empty one included", () => {
    fc.assert(
      fc.property(fc.tuple(text, label), fc.tuple(text, label), ([keyA, labelA], [keyB, labelB]) => {
        fc.pre(keyA !== keyB || labelA !== labelB);
        expect(idempotencyKeyOf(keyA, labelA)).not.toBe(idempotencyKeyOf(keyB, labelB));
      }),
    );
    // Where a plain concatenation would meet: the key's end moved into the label, and two lone surrogates.
    expect(idempotencyKeyOf("event:a/", "b")).not.toBe(idempotencyKeyOf("event:a", "/b"));
    expect(idempotencyKeyOf("event:a", "")).not.toBe(idempotencyKeyOf("event:a"));
    expect(idempotencyKeyOf("event:\uD800")).not.toBe(idempotencyKeyOf("event:\uDFFF"));
  });

  it("are the same in the request and in a worker running the delivery's job", async () => {
    const body = JSON.stringify({ id: "evt_1", type: "message.failed", data: { id: "msg_1", status: "failed" } });
    const seen: string[] = [];
    const receiver = createReceiver({ secret: "s" }).on("message.failed", (event, ctx) => {
      seen.push(ctx.idempotencyKey("refund"));
      const { context } = readQueuedDelivery(toQueuedDelivery(event, ctx, false), { id: "job_1", attempt: 1 });
      seen.push(context.idempotencyKey("refund"));
    });
    const delivered = { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, "s") } };
    expect((await receiver.receive(delivered)).code).toBe("accepted");
    expect(seen).toEqual([idempotencyKeyOf("event:evt_1", "refund"), idempotencyKeyOf("event:evt_1", "refund")]);
  });

  it("says how to call it when called detached from the context", async () => {
    const body = JSON.stringify({ id: "evt_2", type: "message.failed", data: { id: "msg_1", status: "failed" } });
    let thrown: unknown;
    const receiver = createReceiver({ secret: "s", logger: { error() {} } }).on("message.failed", (_event, ctx) => {
      const { idempotencyKey } = ctx;
      try {
        idempotencyKey();
      } catch (error) {
        thrown = error;
      }
    });
    await receiver.receive({
      rawBody: new TextEncoder().encode(body),
      headers: { "service-signature": sign(body, "s") },
    });
    expect(thrown).toEqual(
      new TypeError("idempotencyKey: call it on the handler's context, as ctx.idempotencyKey(label)"),
    );
  });
});
