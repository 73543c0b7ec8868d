import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBase64Ed25519, isBase64Sha256, isHexSha256, isTimestampText } from "../src/verification/formats";

/** Each predicate and the plain rule it stands for, with strings near the rule's edge that it must judge. */
const RULES = [
  { name: "isTimestampText", holds: isTimestampText, rule: /^[0-9]{1,15}$/, alphabet: "0123456789", lengths: [1, 15] },
  { name: "isHexSha256", holds: isHexSha256, rule: /^[0-9a-f]{64}$/, alphabet: "0123456789abcdef", lengths: [64] },
  {
    name: "isBase64Sha256",
    holds: isBase64Sha256,
    rule: /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/,
    alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    lengths: [43],
    last: "AEIMQUYcgkosw048",
    pad: "=",
  },
  {
    name: "isBase64Ed25519",
    holds: isBase64Ed25519,
    rule: /^[A-Za-z0-9+/]{85}[AQgw]==$/,
    alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    lengths: [86],
    last: "AQgw",
    pad: "==",
  },
];

/** Strings of the rule's alphabet around its lengths, with a stray character (or padding) now and then. */
function nearRule({ alphabet, lengths, pad = "" }: (typeof RULES)[number]) {
  const min = Math.max(0, Math.min(...lengths) - 2);
  const max = Math.max(...lengths) + 2;
  const char = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...alphabet) },
    { weight: 1, arbitrary: fc.constantFrom("=", "-", "_", "A", "F", " ", "\n", "\u0660", "é") },
  );
  return fc
    .tuple(fc.array(char, { minLength: min, maxLength: max }), fc.constantFrom(pad, "", "=", "=="))
    .map(([chars, end]) => chars.join("") + end);
}

describe.each(RULES)("$name", (format) => {
  it("says what its rule says, for strings near the rule and for any string", () => {
    fc.assert(
      fc.property(fc.oneof(nearRule(format), fc.string()), (text) => format.holds(text) === format.rule.test(text)),
      { numRuns: 20_000 },
    );
  });

  it("takes the rule's own examples at each edge of its length", () => {
    for (const length of format.lengths) {
      const chars = format.alphabet.repeat(100).slice(0, length);
      const valid = chars.slice(0, -1) + (format.last?.[0] ?? chars.slice(-1)) + (format.pad ?? "");
      expect([format.holds(valid), format.holds(`${valid}\n`), format.holds(valid.slice(1))]).toEqual([
        true,
        false,
        format.rule.test(valid.slice(1)),
      ]);
    }
  });
});

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

describe.each([
  { name: "isBase64Sha256", holds: isBase64Sha256, bytes: 32, unusedBits: 2 },
  { name: "isBase64Ed25519", holds: isBase64Ed25519, bytes: 64, unusedBits: 4 },
])("$name", ({ holds, bytes, unusedBits }) => {
  it("holds for the bytes as an encoder writes them, and for none of their other spellings", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: bytes, maxLength: bytes }),
        fc.integer({ min: 1, max: 2 ** unusedBits - 1 }),
        (signature, bits) => {
          const text = Buffer.from(signature).toString("base64");
          const last = text.length - unusedBits / 2 - 1;
          const other =
            text.slice(0, last) + BASE64[BASE64.indexOf(text[last] as string) + bits] + text.slice(last + 1);
          // A decoder reads the other spelling as the same bytes: only the rule tells them apart.
          expect(Buffer.from(other, "base64")).toEqual(Buffer.from(signature));
          expect([holds(text), holds(other)]).toEqual([true, false]);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
