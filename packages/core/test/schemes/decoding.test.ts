import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64UrlAsBase64, base64UrlBytes, base64UrlToBase64, isBase64Url } from "../../src/crypto/base64";
import { hexToBytes } from "../../src/crypto/hex";
import { formFields, formPairs, paramsPairs, sortedForm } from "../../src/schemes/form-fields";

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

describe("a form's fields", () => {
  const encode = (text: string) => encodeURIComponent(text).replaceAll("%20", "+");
  const hex = (byte: number) => byte.toString(16).padStart(2, "0");
  // What a form parser meets: separators, `+`, escapes of any byte in either case (UTF-8 or not), a `%` with no hex
  // after it, escaped and raw non-ASCII, lone surrogates, and a leading `?`.
  const piece = fc.oneof(
    fc.constantFrom("&", "=", "+", "%", "?", "%2", "%zz", "%%", "é", "\uD83D", "\uDE00", "\uD83D\uDE00", "a", "b"),
    fc.integer({ min: 0, max: 255 }).map((byte) => `%${hex(byte)}`),
    fc.integer({ min: 0, max: 255 }).map((byte) => `%${hex(byte).toUpperCase()}`),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 2 }).map(encode),
    fc.string({ maxLength: 3 }),
  );
  const texts = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(""));
  // The general path: what URLSearchParams reads, sorted as the fields' map sorts them.
  const fromParams = (text: string, distinct: boolean) => {
    const fields = new Map<string, string[]>();
    for (const [name, value] of paramsPairs(text)) fields.set(name, [...(fields.get(name) ?? []), value]);
    const pairs = [...fields.keys()].sort().flatMap((name) => {
      const values = fields.get(name) ?? [];
      return (distinct ? [...new Set(values)] : [...values]).sort().map((value) => `${name}=${value}`);
    });
    return pairs.length === 0 ? undefined : pairs.join("&");
  };

  it("are read as URLSearchParams reads them, from text and from its UTF-8 bytes", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(formPairs(text)).toEqual(paramsPairs(text));
        expect(formPairs(new TextEncoder().encode(text))).toEqual(
          paramsPairs(new TextDecoder().decode(new TextEncoder().encode(text))),
        );
        const fields = new Map<string, string[]>();
        for (const [name, value] of new URLSearchParams(text.startsWith("?") ? `&${text}` : text)) {
          fields.set(name, [...(fields.get(name) ?? []), value]);
        }
        expect(formFields(text)).toEqual(fields);
      }),
      { numRuns: 5000 },
    );
  });

  it("sort as URLSearchParams' fields sorted by name, then value, repeated names and values included", () => {
    const name = fc.oneof(
      fc.constantFrom("a", "B", "b", "é", "MediaUrl", "", "\uFF61", "\u{1F600}"),
      fc.string({ maxLength: 3 }),
    );
    const lists = fc.array(fc.tuple(name, fc.string({ maxLength: 4 })), { maxLength: 40 });
    fc.assert(
      fc.property(
        fc.oneof(
          lists.map((list) =>
            list.map(([n, v]) => `${encode(n.toWellFormed())}=${encode(v.toWellFormed())}`).join("&"),
          ),
          texts,
        ),
        fc.boolean(),
        (body, distinct) => {
          expect(sortedForm(body, "=", "&", distinct)).toBe(fromParams(body, distinct));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
