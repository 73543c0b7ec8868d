import { generateKeyPairSync, sign } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes } from "../../src/crypto/base64";
import { derToP1363, isBase64DerSignature } from "../../src/crypto/ecdsa-p256";

const NUM_RUNS = 5000;
// Canonical padded base64, as every encoder writes it: what the signature header must be before its DER is read.
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;

/** One DER INTEGER at `at`: its value's bytes (minimal, positive, at most 33), or undefined. */
function integerAt(der: Uint8Array, at: number): Uint8Array | undefined {
  const length = der[at + 1] as number;
  if (der[at] !== 0x02 || length === 0 || length > 33 || at + 2 + length > der.length) return undefined;
  const value = der.subarray(at + 2, at + 2 + length);
  const first = value[0] as number;
  if (first & 0x80 || (length === 33 && first !== 0)) return undefined;
  if (first === 0 && (length === 1 || !((value[1] as number) & 0x80))) return undefined;
  return value;
}

/** r ‖ s of a strictly encoded DER signature, decoded and read in full; undefined for any other bytes. */
function strictP1363(der: Uint8Array): Uint8Array | undefined {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const r = integerAt(der, 2);
  const s = r && integerAt(der, 4 + r.length);
  if (!r || !s || 6 + r.length + s.length !== der.length) return undefined;
  const out = new Uint8Array(64);
  out.set(r.length === 33 ? r.subarray(1) : r, 32 - Math.min(r.length, 32));
  out.set(s.length === 33 ? s.subarray(1) : s, 64 - Math.min(s.length, 32));
  return out;
}

/** The check by decoding: canonical base64 of at most 96 characters, of strict DER. */
const byDecoding = (text: string) =>
  text.length <= 96 && CANONICAL_BASE64.test(text) && strictP1363(base64ToBytes(text)) !== undefined;

const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const signatures = Array.from({ length: 24 }, (_, i) => sign("sha256", Buffer.from(`body ${i}`), privateKey));

/** DER built from parts: a SEQUENCE of two INTEGERs, each of a length and a first byte that may break the rules. */
const integer = fc
  .tuple(
    fc.oneof(fc.constantFrom(0, 1, 2, 31, 32, 33, 34), fc.integer({ min: 0, max: 35 })),
    fc.constantFrom(0x00, 0x01, 0x7f, 0x80, 0xff),
    fc.constantFrom(0x00, 0x80),
  )
  .map(([size, first, second]) => {
    const value = Buffer.alloc(size, 0x11);
    if (size > 0) value[0] = first;
    if (size > 1) value[1] = second;
    return Buffer.concat([Buffer.from([0x02, size]), value]);
  });
const built = fc
  .tuple(integer, integer, fc.constantFrom(0, 0, 0, -1, 1, 2), fc.constantFrom(0x30, 0x30, 0x31))
  .map(([r, s, off, tag]) => {
    const body = Buffer.concat([r, s]);
    return Buffer.concat([Buffer.from([tag, (body.length + off) & 0xff]), body]);
  });
/** A real signature with one byte changed, cut short, or grown. */
const mutated = fc
  .tuple(fc.constantFrom(...signatures), fc.nat(80), fc.nat(255), fc.constantFrom("set", "cut", "grow"))
  .map(([signature, index, byte, how]) => {
    const bytes = Buffer.from(signature);
    const at = index % bytes.length;
    if (how === "cut") return bytes.subarray(0, at);
    if (how === "grow") return Buffer.concat([bytes, Buffer.from([byte])]);
    bytes[at] = byte;
    return bytes;
  });
const bytes = fc.oneof(
  fc.constantFrom(...signatures),
  built,
  mutated,
  fc.uint8Array({ maxLength: 80 }).map(Buffer.from),
);
/** Their base64, as written, or with one character changed (padding, other alphabets, low bits). */
const text = fc.oneof(
  bytes.map((value) => value.toString("base64")),
  fc
    .tuple(bytes, fc.nat(), fc.constantFrom("", "=", "==", "A", "B", "Q", "R", "g", "w", "-", "_", " ", "é", "/", "+"))
    .map(([value, index, char]) => {
      const written = value.toString("base64");
      const at = index % (written.length + 1);
      return written.slice(0, at) + char + written.slice(at + 1);
    }),
);

describe("SendGrid's signature text (ECDSA, base64 DER)", () => {
  it("property: checked from its characters as decoding it and reading its DER checks it", () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(isBase64DerSignature(value)).toBe(byDecoding(value));
        // What Web Crypto then verifies: r ‖ s as reading the whole DER finds them.
        if (byDecoding(value)) expect(derToP1363(base64ToBytes(value))).toEqual(strictP1363(base64ToBytes(value)));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("accepts what node:crypto signs", () => {
    for (const signature of signatures) expect(isBase64DerSignature(signature.toString("base64"))).toBe(true);
  });
});
