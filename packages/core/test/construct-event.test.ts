import { describe, expect, it } from "vitest";
import { constructEvent, constructEventAsync, sign } from "../src/entries";
import { BODY, clock, header, NOW_SECONDS, SECRET } from "./fixtures";

describe("constructEvent", () => {
  it("verifies then returns the parsed JSON object", async () => {
    const expected = JSON.parse(BODY);
    expect(constructEvent(Buffer.from(BODY), header(), SECRET, clock)).toEqual(expected);
    await expect(constructEventAsync(BODY, header(), SECRET, clock)).resolves.toEqual(expected);
  });

  it("parses a body with a BOM and stray invalid bytes inside strings", () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"type":"x","note":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const event = constructEvent(bytes, header(bytes), SECRET, clock);
    expect(event).toEqual({ type: "x", note: "\uFFFD" });
  });

  it("reports a validly signed body that is not JSON as invalid_payload", async () => {
    for (const text of ["not json", "[1,2]", "null", "42"]) {
      const signed = sign(text, SECRET, { timestamp: NOW_SECONDS });
      expect(() => constructEvent(text, signed, SECRET, clock)).toThrow(
        expect.objectContaining({ code: "invalid_payload", status: 400 }),
      );
      await expect(constructEventAsync(text, signed, SECRET, clock)).rejects.toMatchObject({ code: "invalid_payload" });
    }
  });

  it("does not parse a body whose signature fails", () => {
    expect(() => constructEvent("not json", header(), SECRET, clock)).toThrow(
      expect.objectContaining({ code: "signature_mismatch" }),
    );
  });
});
