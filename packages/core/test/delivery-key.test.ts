import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver } from "../src/entries";
import { deliveryKeyOf, encodeLabel, endpointKey } from "../src/receiver/delivery-key";
import { bodyOf, event, SECRET, signed } from "./receiver-fixtures";

/** Any UTF-16 code unit, lone surrogates often, and the characters the key's syntax uses. */
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(":", "%", "u", "D", "8", "0", "\uFFFD", "\uD83D\uDE00"),
);
const anyString = fc.string({ unit, maxLength: 10 });

describe("deliveryKeyOf", () => {
  it("keys by the event id, else by the matched signature, scoped when the endpoint has a scope", () => {
    expect(deliveryKeyOf("evt_1", { signature: "sig" }, undefined)).toBe("event:evt_1");
    expect(deliveryKeyOf(undefined, { signature: "sig" }, undefined)).toBe("signature:sig");
    expect(deliveryKeyOf("evt_1", { signature: "sig" }, "acct 42")).toBe(
      `endpoint:${encodeURIComponent("acct 42")}:event:evt_1`,
    );
  });

  it("property: two deliveries share a key only when their id (or, without one, signature) and scope are equal", () => {
    const delivery = fc.record({
      id: fc.option(anyString, { nil: undefined }),
      signature: anyString,
      scope: fc.option(anyString, { nil: undefined }),
    });
    fc.assert(
      fc.property(delivery, delivery, (a, b) => {
        const same =
          a.scope === b.scope &&
          (a.id === undefined ? b.id === undefined && a.signature === b.signature : a.id === b.id);
        expect(deliveryKeyOf(a.id, a, a.scope) === deliveryKeyOf(b.id, b, b.scope)).toBe(same);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("endpoint dedup keys", () => {
  it("keep labels with lone surrogates apart, and apart from the labels encodeURIComponent writes", () => {
    const labels = ["a\uD800", "a\uDBFF", "a\uDFFF", "a\uFFFD", "a%uD800", "a%25uD800", "\uDC00\uD800", "\uD800\uDC00"];
    const encoded = labels.map(encodeLabel);
    expect(new Set(encoded).size).toBe(labels.length);
    expect(encodeLabel("acct 42:x")).toBe(encodeURIComponent("acct 42:x"));
  });

  it("property: never throw, and two different (label, key) pairs never share a key", () => {
    fc.assert(
      fc.property(anyString, anyString, anyString, anyString, (label1, key1, label2, key2) => {
        const same = label1 === label2 && key1 === key2;
        expect(endpointKey(label1, key1) === endpointKey(label2, key2)).toBe(same);
      }),
      { numRuns: 20_000 },
    );
  });

  it("a label with a lone surrogate is handled like any other, not answered 500 on every retry", async () => {
    const runs: string[] = [];
    const receiver = createReceiver({ secret: () => ({ secret: SECRET, endpoint: "acct_\uD800" }) }).onAny(
      (_event, context) => {
        runs.push(context.deliveryKey);
      },
    );
    expect((await receiver.receive(signed(event()))).status).toBe(200);
    expect(bodyOf(await receiver.receive(signed(event()))).duplicate).toBe(true);
    expect(runs).toEqual(["endpoint:acct_%uD800:event:evt_1"]);
  });
});
