import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../src/entries";
import { parseSignatureHeader } from "../src/entries/schemes";

const SIG_A = "a".repeat(64);
const SIG_B = "0123456789abcdef".repeat(4);

function codeOf(header: string): string | undefined {
  try {
    parseSignatureHeader(header);
    return undefined;
  } catch (error) {
    return (error as WebhookVerificationError).code;
  }
}

describe("parseSignatureHeader", () => {
  it("reads t and v1", () => {
    expect(parseSignatureHeader(`t=1700000000,v1=${SIG_A}`)).toEqual({ timestamp: 1700000000, signatures: [SIG_A] });
  });

  it("takes pairs in any order, with spaces around them, keeping every v1", () => {
    expect(parseSignatureHeader(` v1=${SIG_B} ,\tt=12 , v1=${SIG_A}`)).toEqual({
      timestamp: 12,
      signatures: [SIG_B, SIG_A],
    });
  });

  it("ignores other schemes and malformed v1 values", () => {
    expect(parseSignatureHeader(`t=1,v0=${SIG_A},v2=xyz,v1=${SIG_A.slice(1)},v1=${SIG_B}`).signatures).toEqual([SIG_B]);
  });

  it("rejects a second t, and any t that is not plain decimal digits", () => {
    expect(codeOf(`t=1,t=1,v1=${SIG_A}`)).toBe("malformed_header");
    for (const t of ["-1", "+1", "1.5", "1e9", "0x10", "", " 1", "1".repeat(16), "١٢"]) {
      expect(codeOf(`t=${t},v1=${SIG_A}`), `t=${t}`).toBe("malformed_header");
    }
  });

  it("rejects pairs that are not name=value", () => {
    for (const header of [`t=1,v1=${SIG_A},`, `t=1,,v1=${SIG_A}`, `t=1,${SIG_A}`, `t=1,=${SIG_A}`]) {
      expect(codeOf(header), header).toBe("malformed_header");
    }
  });

  it("bounds the work on hostile input: over 8 KiB or over 32 pairs is malformed", () => {
    const longButFewPairs = `t=1,v1=${SIG_A},x=${"y".repeat(8192)}`;
    expect(codeOf(longButFewPairs)).toBe("malformed_header");
    const thirtyThreePairs = [`t=1`, ...Array.from({ length: 32 }, () => `v1=${SIG_A}`)].join(",");
    expect(codeOf(thirtyThreePairs)).toBe("malformed_header");
    const thirtyTwoPairs = [`t=1`, ...Array.from({ length: 31 }, () => `v1=${SIG_A}`)].join(",");
    expect(parseSignatureHeader(thirtyTwoPairs).signatures).toHaveLength(31);
  });

  it("tells a missing header from one without a usable signature", () => {
    expect(codeOf("")).toBe("missing_header");
    expect(codeOf(`v1=${SIG_A}`)).toBe("malformed_header");
    expect(codeOf("t=1,v1=abc")).toBe("no_supported_signature");
  });

  it("property: any string yields a parse or a WebhookVerificationError, never another exception", () => {
    const pieces = fc.constantFrom("t", "v1", "v0", "=", ",", " ", SIG_A, "1700000000", "-", "\u0000", "é");
    const headerLike = fc.array(fc.oneof(pieces, fc.string()), { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 9000 }), headerLike), (header) => {
        try {
          const parsed = parseSignatureHeader(header);
          expect(Number.isSafeInteger(parsed.timestamp)).toBe(true);
          for (const signature of parsed.signatures) expect(signature).toMatch(/^[0-9a-f]{64}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("property: well-formed headers parse back to their parts, whatever the order", () => {
    const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 15 - 1 }),
        fc.array(hex64, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 5 }),
        (timestamp, signatures, tAt) => {
          const pairs = signatures.map((s) => `v1=${s}`);
          pairs.splice(Math.min(tAt, pairs.length), 0, `t=${timestamp}`);
          expect(parseSignatureHeader(pairs.join(", "))).toEqual({ timestamp, signatures });
        },
      ),
    );
  });

  it("property: the fast path for the header the service sends agrees with the general parser", () => {
    // A leading space keeps the same header off the one-match fast path, so both paths parse it.
    const canonical = fc
      .tuple(fc.integer({ min: 0, max: 10 ** 15 - 1 }), fc.stringMatching(/^[0-9a-f]{64}$/))
      .map(([t, v1]) => `t=${t},v1=${v1}`);
    const nearMisses = fc
      .tuple(canonical, fc.nat(200), fc.constantFrom("", " ", ",", "=", "x", "A", "0", "v1"))
      .map(
        ([header, at, insert]) =>
          header.slice(0, at % (header.length + 1)) + insert + header.slice(at % (header.length + 1)),
      );
    const outcome = (header: string) => {
      try {
        return parseSignatureHeader(header);
      } catch (error) {
        return { code: (error as WebhookVerificationError).code, message: (error as Error).message };
      }
    };
    fc.assert(
      fc.property(fc.oneof(canonical, nearMisses), (header) => {
        expect(outcome(header)).toEqual(outcome(` ${header}`));
      }),
      { numRuns: 2000 },
    );
  });
});
