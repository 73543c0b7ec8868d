import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sign } from "../src/entries";

describe("sign", () => {
  it("returns t and a 64-hex v1, with the current time by default", () => {
    const before = Math.floor(Date.now() / 1000);
    const value = sign("{}", "secret");
    const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(value)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(before + 1);
  });

  it("signs a string as its UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(sign(text, "k", { timestamp: 1 })).toBe(sign(Buffer.from(text, "utf8"), "k", { timestamp: 1 }));
      }),
    );
  });

  it("throws TypeError on a bad secret, timestamp or payload", () => {
    expect(() => sign("{}", "")).toThrow(TypeError);
    for (const timestamp of [-1, 1.5, Number.NaN]) expect(() => sign("{}", "k", { timestamp })).toThrow(TypeError);
    expect(() => sign({} as unknown as string, "k")).toThrow(TypeError);
  });
});
