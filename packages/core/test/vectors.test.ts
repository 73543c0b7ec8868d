import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { matchWithWebCrypto } from "../src/crypto/web-crypto";
import { sign, verify, verifyAsync } from "../src/entries";
import { parseVerifyArguments } from "../src/verification/signed-delivery";
import { matchSignature } from "../src/verification/verify-async";

interface Vector {
  name: string;
  secret: string;
  timestamp: number;
  signature: string;
  bodyBase64?: string;
  bodyPattern?: string;
  bodyLength?: number;
}

// Computed by OpenSSL (test/vectors/generate.sh), not by this library.
const vectors: Vector[] = JSON.parse(
  readFileSync(new URL("../../../test/vectors/vectors.json", import.meta.url), "utf8"),
);

function bodyOf(vector: Vector): Buffer {
  if (vector.bodyBase64 !== undefined) return Buffer.from(vector.bodyBase64, "base64");
  return Buffer.alloc(vector.bodyLength as number, vector.bodyPattern as string);
}

describe("known-answer vectors from OpenSSL", () => {
  it("covers the required bodies", () => {
    expect(vectors.map((v) => v.name)).toEqual([
      "ascii-json",
      "multibyte-utf8-json",
      "empty-body",
      "bom-and-invalid-utf8",
      "one-mebibyte",
    ]);
    expect(bodyOf(vectors[4] as Vector).length).toBe(1024 * 1024);
  });

  for (const vector of vectors) {
    const body = bodyOf(vector);
    const expectedHeader = `t=${vector.timestamp},v1=${vector.signature}`;
    const now = () => vector.timestamp * 1000;

    it(`${vector.name}: sign produces OpenSSL's signature`, () => {
      expect(sign(body, vector.secret, { timestamp: vector.timestamp })).toBe(expectedHeader);
    });

    it(`${vector.name}: verify, verifyAsync and the Web Crypto path accept it`, async () => {
      const expected = { timestamp: vector.timestamp, secretIndex: 0 };
      expect(verify(body, expectedHeader, vector.secret, { now })).toEqual(expected);
      await expect(verifyAsync(body, expectedHeader, vector.secret, { now })).resolves.toEqual(expected);
      const prepared = parseVerifyArguments(body, expectedHeader, vector.secret, { now });
      expect(await matchSignature(prepared, { now }, matchWithWebCrypto)).toEqual({
        ...expected,
        match: { secretIndex: 0, signature: vector.signature },
      });
    });
  }

  it("a string payload is its UTF-8 bytes", () => {
    const vector = vectors[1] as Vector;
    const text = bodyOf(vector).toString("utf8");
    const now = () => vector.timestamp * 1000;
    expect(verify(text, `t=${vector.timestamp},v1=${vector.signature}`, vector.secret, { now }).secretIndex).toBe(0);
  });
});
