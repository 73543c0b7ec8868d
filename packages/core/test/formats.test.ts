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
    rule: /^[A-Za-z0-9+/]{43}=$/,
    alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    lengths: [43],
    pad: "=",
  },
  {
    name: "isBase64Ed25519",
    holds: isBase64Ed25519,
    rule: /^[A-Za-z0-9+/]{86}==$/,
    alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    lengths: [86],
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
      const valid = format.alphabet.repeat(100).slice(0, length) + (format.pad ?? "");
      expect([format.holds(valid), format.holds(`${valid}\n`), format.holds(valid.slice(1))]).toEqual([
        true,
        false,
        format.rule.test(valid.slice(1)),
      ]);
    }
  });
});
