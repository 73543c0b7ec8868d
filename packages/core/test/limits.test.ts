import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { declaredLength, plainLength } from "../src/body/limits";

/** What a Content-Length must look like to count: 1 to 15 ASCII digits, nothing else. */
const reference = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : undefined);

describe("Content-Length", () => {
  it("reads exactly the values of 1 to 15 ASCII digits, whatever else a header may hold", () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 17 });
    const nearDigits = fc.string({ unit: fc.constantFrom(..."0123456789 +-.eExX\t,\u0660\uff10"), maxLength: 17 });
    fc.assert(
      fc.property(fc.oneof(digits, nearDigits, fc.string({ maxLength: 20 })), (value) => {
        expect(plainLength(value)).toBe(reference(value));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads the header from Web Headers and from Node's header record", () => {
    expect(declaredLength(new Headers({ "content-length": "2048" }))).toBe(2048);
    expect(declaredLength({ "content-length": "999999999999999" })).toBe(999_999_999_999_999);
    expect(declaredLength({ "content-length": "1000000000000000" })).toBeUndefined();
    expect(declaredLength(new Headers())).toBeUndefined();
    expect(declaredLength({ "content-length": "12, 12" })).toBeUndefined();
  });
});
