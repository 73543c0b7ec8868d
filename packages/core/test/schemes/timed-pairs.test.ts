import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import { readTimedPairs, timedPairsReader } from "../../src/schemes/timed-pairs";

const V1 = "ab".repeat(32);
const COMMA = { separator: ",", time: "t", signature: "v1", display: "Mux-Signature" };
const SEMICOLON = { separator: ";", time: "ts", signature: "h1", display: "Paddle-Signature" };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.code;
  }
}

describe("readTimedPairs", () => {
  it("reads the time as sent and every well-formed signature, in any order, spaces around pairs ignored", () => {
    expect(readTimedPairs(`t=0123,v1=${V1}`, COMMA)).toEqual({
      timestampText: "0123",
      timestamp: 123,
      signatures: [V1],
    });
    expect(readTimedPairs(`v1=${V1}, t=1, v0=${V1}, v1=zz, v1=${V1}`, COMMA)).toEqual({
      timestampText: "1",
      timestamp: 1,
      signatures: [V1, V1],
    });
    expect(readTimedPairs(`ts=1767225600;h1=${V1}`, SEMICOLON).signatures).toEqual([V1]);
    expect(readTimedPairs(`\u00a0t=1,\tv1=${V1}\ufeff`, COMMA)).toEqual({
      timestampText: "1",
      timestamp: 1,
      signatures: [V1],
    });
  });

  it("answers malformed_header for a missing, repeated or malformed time, and for what is not pairs", () => {
    for (const header of [
      `v1=${V1}`,
      `t=1,t=2,v1=${V1}`,
      `t=-1,v1=${V1}`,
      `t=${"1".repeat(16)},v1=${V1}`,
      "garbage",
      `=1,v1=${V1}`,
    ]) {
      expect(codeOf(() => readTimedPairs(header, COMMA))).toBe("malformed_header");
    }
    expect(codeOf(() => readTimedPairs(`t=1${",v0=x".repeat(40)}`, COMMA))).toBe("malformed_header");
  });

  it("answers no_supported_signature when no signature is well-formed", () => {
    for (const header of ["t=1", `t=1,v1=${V1.toUpperCase()}`, `t=1,v1=${V1}0`, `t=1,h1=${V1}`]) {
      expect(codeOf(() => readTimedPairs(header, COMMA))).toBe("no_supported_signature");
    }
    // Paddle's separator is `;`: a comma-separated header is one malformed pair.
    expect(codeOf(() => readTimedPairs(`ts=1,h1=${V1}`, SEMICOLON))).toBe("malformed_header");
  });
});

/** The reader's answer, or the error's code and message: what a fast path must match exactly. */
function outcomeOf(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe("timedPairsReader", () => {
  const ofLength = (chars: string, min: number, max: number) =>
    fc
      .integer({ min, max })
      .chain((length) => fc.string({ unit: fc.constantFrom(...chars), minLength: length, maxLength: length }));
  const digits = (min: number, max: number) => ofLength("0123456789", min, max);
  const hex = (min: number, max: number) => ofLength("0123456789abcdef", min, max);
  const part = fc.oneof(
    fc.constantFrom(
      "t",
      "ts",
      "v1",
      "h1",
      "v0",
      "=",
      ",",
      ";",
      " ",
      ", ",
      "\t",
      "0",
      "1767225600",
      V1,
      V1.toUpperCase(),
    ),
    hex(0, 66),
    digits(0, 17),
  );
  const headers = fc.oneof(
    fc.array(part, { maxLength: 9 }).map((parts) => parts.join("")),
    fc
      .tuple(digits(0, 17), fc.constantFrom(",", ";", ", ", ",  ", " ,"), hex(62, 66), fc.boolean())
      .map(([time, separator, signature, paddle]) =>
        paddle ? `ts=${time}${separator}h1=${signature}` : `t=${time}${separator}v1=${signature}`,
      ),
  );

  it("answers every header exactly as readTimedPairs does, the canonical shape included", () => {
    for (const names of [COMMA, SEMICOLON]) {
      const read = timedPairsReader(names);
      fc.assert(
        fc.property(headers, (header) => {
          expect(outcomeOf(() => read(header))).toEqual(outcomeOf(() => readTimedPairs(header, names)));
        }),
        { numRuns: 2_000 },
      );
    }
  });

  it("reads the shapes senders write", () => {
    expect(timedPairsReader(COMMA)(`t=1767225600, v1=${V1}`)).toEqual({
      timestampText: "1767225600",
      timestamp: 1767225600,
      signatures: [V1],
    });
    expect(timedPairsReader(SEMICOLON)(`ts=0042;h1=${V1}`)).toEqual({
      timestampText: "0042",
      timestamp: 42,
      signatures: [V1],
    });
  });
});
