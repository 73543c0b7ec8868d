import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redisKey } from "../src/key";

const fromCode = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
const unit = fc.oneof(fromCode(0, 0xffff), fromCode(0xd800, 0xdfff), fc.constantFrom("\uFFFD", "\uD83D\uDE00"));
// Short strings over a few units, so that pairs which only differ in lone surrogates and U+FFFD come up often.
const nearString = fc.string({
  unit: fc.constantFrom("\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uFFFD", "a"),
  maxLength: 4,
});
const anyString = fc.oneof(fc.string({ unit, maxLength: 12 }), nearString);
/** The bytes Redis stores: ioredis writes a string key as UTF-8. */
const bytesOf = (key: string | Buffer) => (typeof key === "string" ? Buffer.from(key, "utf8") : key);

describe("redisKey", () => {
  it("keeps a key with no lone surrogate the UTF-8 string Redis always held", () => {
    for (const key of ["tidings:event:evt_1", "endpoint:caf%C3%A9:event:é", "event:\uD83D\uDE00"]) {
      expect(bytesOf(redisKey(key))).toEqual(Buffer.from(key, "utf8"));
    }
  });

  it("writes each lone surrogate as its own three bytes, where UTF-8 would make all of them U+FFFD", () => {
    const keys = ["evt_\uD800", "evt_\uD801", "evt_\uDFFF", "evt_\uFFFD", "evt_\uDC00\uD800"];
    expect(new Set(keys.map((key) => bytesOf(redisKey(key)).toString("hex"))).size).toBe(keys.length);
    expect(bytesOf(redisKey("evt_\uD800")).toString("hex")).toBe(`${Buffer.from("evt_").toString("hex")}eda080`);
  });

  it("property: two different strings are two different byte strings", () => {
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        expect(bytesOf(redisKey(a)).equals(bytesOf(redisKey(b)))).toBe(a === b);
      }),
      { numRuns: 20_000 },
    );
  });
});
