import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "../src/crypto/constant-time";
import { matchWithWebCrypto } from "../src/crypto/web-crypto";
import { verify } from "../src/entries";
import { parseVerifyArguments } from "../src/verification/signed-delivery";
import { matchSignature } from "../src/verification/verify-async";
import { BODY, clock, header, SECRET } from "./fixtures";

describe("payloads that are views into a larger buffer", () => {
  // Buffer.from(string) takes small buffers from a shared 8 KiB pool: byteOffset is not 0 and the backing
  // ArrayBuffer holds other data. A verifier that hashes or compares `.buffer` instead of the view breaks.
  it("verifies a pooled Buffer slice on both crypto paths", async () => {
    Buffer.from("fill the pool first so the next allocation lands at an offset");
    const pooled = Buffer.from(BODY);
    expect(pooled.byteOffset).toBeGreaterThan(0);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    expect(verify(pooled, header(), SECRET, clock).secretIndex).toBe(0);
    const prepared = parseVerifyArguments(pooled, header(), SECRET, clock);
    expect(await matchSignature(prepared, clock, matchWithWebCrypto)).toMatchObject({ secretIndex: 0 });
  });

  it("verifies a subarray and rejects the same bytes with a neighbour changed only when inside the view", () => {
    const frame = Buffer.concat([Buffer.from("HEAD"), Buffer.from(BODY), Buffer.from("TAIL")]);
    const view = frame.subarray(4, 4 + BODY.length);
    expect(verify(view, header(), SECRET, clock).secretIndex).toBe(0);
    frame[0] = 0x00;
    expect(verify(view, header(), SECRET, clock).secretIndex).toBe(0);
    frame[4] = 0x00;
    expect(() => verify(view, header(), SECRET, clock)).toThrow(/No v1 signature/);
  });

  it("keeps the offset of non-Uint8Array views", () => {
    const frame = new Uint8Array(BODY.length + 8);
    frame.set(new TextEncoder().encode(BODY), 8);
    const dataView = new DataView(frame.buffer, 8, BODY.length);
    expect(verify(dataView, header(), SECRET, clock).secretIndex).toBe(0);
  });
});

describe("constantTimeEqual", () => {
  it("agrees with a plain comparison on pooled Buffer slices and fresh arrays", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        const pooledA = Buffer.from(a);
        const pooledB = Buffer.from(b);
        const same = Buffer.compare(pooledA, pooledB) === 0;
        expect(constantTimeEqual(pooledA, pooledB)).toBe(same);
        expect(constantTimeEqual(a, Uint8Array.from(a))).toBe(true);
      }),
    );
  });

  it("does not exit early: it reads every byte of both inputs", () => {
    const reads = { a: 0, b: 0 };
    const counting = (bytes: Uint8Array, key: "a" | "b") =>
      new Proxy(bytes, {
        get(target, property) {
          if (typeof property === "string" && /^\d+$/.test(property)) reads[key]++;
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    const a = new Uint8Array(32).fill(1);
    const b = new Uint8Array(32).fill(2);
    expect(constantTimeEqual(counting(a, "a"), counting(b, "b"))).toBe(false);
    expect(reads).toEqual({ a: 32, b: 32 });
  });
});
