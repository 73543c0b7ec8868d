import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64UrlAsBase64, base64UrlBytes, base64UrlToBase64, isBase64Url } from "../../src/crypto/base64";
import { hexToBytes } from "../../src/crypto/hex";
import { formFields, sortedFormPairs, sortedNames } from "../../src/schemes/form-fields";

describe("decoding what a header carries", () => {
  it("hex, in either case, is the bytes Node decodes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, upper) => {
        const hex = Buffer.from(bytes).toString("hex");
        expect(hexToBytes(upper ? hex.toUpperCase() : hex)).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it("base64url is decoded where it is canonical and unpadded, and refused otherwise, as the pattern rules", () => {
    const alphabet = fc.constantFrom(..."ABCQgwxyz019-_+/=.".split(""));
    const texts = fc.oneof(
      fc.uint8Array({ maxLength: 48 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
      fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join("")),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const expected = isBase64Url(text) ? Buffer.from(base64UrlToBase64(text), "base64") : undefined;
        const bytes = base64UrlBytes(text);
        expect(bytes === undefined ? undefined : Buffer.from(bytes)).toEqual(expected);
        expect(base64UrlAsBase64(text)).toBe(expected === undefined ? undefined : base64UrlToBase64(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("a signed form's fields, sorted", () => {
  const encode = (text: string) => encodeURIComponent(text).replaceAll("%20", "+");
  // What the fields sort to read from their map: names sorted, each name's values sorted (distinct ones only).
  const fromMap = (body: string, distinct: boolean) => {
    const fields = formFields(body);
    return sortedNames(fields).flatMap((name) => {
      const values = fields.get(name) ?? [];
      return (distinct ? [...new Set(values)] : [...values]).sort().map((value) => name + value);
    });
  };

  it("are what sorting the map of the fields gives, repeated names and values included", () => {
    const name = fc.oneof(fc.constantFrom("a", "B", "b", "é", "MediaUrl", ""), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, fc.string({ maxLength: 4 })), { maxLength: 10 }),
        fc.boolean(),
        (list, distinct) => {
          const body = list.map(([n, v]) => `${encode(n.toWellFormed())}=${encode(v.toWellFormed())}`).join("&");
          expect(sortedFormPairs(body, (n, v) => n + v, distinct)).toEqual(fromMap(body, distinct));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
