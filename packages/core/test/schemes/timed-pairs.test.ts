import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import { readTimedPairs } from "../../src/schemes/timed-pairs";

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
