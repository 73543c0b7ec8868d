import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchWithWebCrypto } from "../src/crypto/web-crypto";
import { safeVerify, sign, verify, verifyAsync, WebhookVerificationError } from "../src/entries";
import { parseVerifyArguments } from "../src/verification/signed-delivery";
import { matchSignature } from "../src/verification/verify-async";

const secret = fc.string({ minLength: 1, maxLength: 64 });
const body = fc.uint8Array({ maxLength: 2048 });
const timestamp = fc.integer({ min: 0, max: 4_102_444_800 });
const at = (seconds: number) => ({ now: () => seconds * 1000 });

describe("verification properties", () => {
  it("sign then verify round-trips for any bytes, secret and timestamp", () => {
    fc.assert(
      fc.property(body, secret, timestamp, (payload, key, t) => {
        expect(verify(payload, sign(payload, key, { timestamp: t }), key, at(t))).toEqual({
          timestamp: t,
          secretIndex: 0,
        });
      }),
    );
  });

  it("any change to one byte of the body is rejected", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        secret,
        timestamp,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (payload, key, t, position, flip) => {
          const header = sign(payload, key, { timestamp: t });
          const tampered = Uint8Array.from(payload);
          const index = position % tampered.length;
          tampered[index] = (tampered[index] as number) ^ flip;
          const result = safeVerify(tampered, header, key, at(t));
          expect(result.ok === false && result.error.code).toBe("signature_mismatch");
        },
      ),
    );
  });

  it("any change to the timestamp is rejected, even inside the tolerance", () => {
    fc.assert(
      fc.property(body, secret, timestamp, fc.integer({ min: -300, max: 300 }), (payload, key, t, shift) => {
        fc.pre(shift !== 0 && t + shift >= 0);
        const header = sign(payload, key, { timestamp: t }).replace(`t=${t}`, `t=${t + shift}`);
        const result = safeVerify(payload, header, key, at(t));
        expect(result.ok === false && result.error.code).toBe("signature_mismatch");
      }),
    );
  });

  it("any change to one hex digit of the signature is rejected", () => {
    fc.assert(
      fc.property(body, secret, timestamp, fc.nat(63), fc.nat(15), (payload, key, t, position, digit) => {
        const header = sign(payload, key, { timestamp: t });
        const start = header.indexOf("v1=") + 3 + position;
        const original = header[start] as string;
        const replacement = digit.toString(16) === original ? ((digit + 1) % 16).toString(16) : digit.toString(16);
        const tampered = header.slice(0, start) + replacement + header.slice(start + 1);
        const result = safeVerify(payload, tampered, key, at(t));
        expect(result.ok === false && result.error.code).toBe("signature_mismatch");
      }),
    );
  });

  it("arbitrary headers only ever produce a WebhookVerificationError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), body, (header, payload) => {
        const result = safeVerify(payload, header, "s", at(1));
        if (!result.ok) expect(result.error).toBeInstanceOf(WebhookVerificationError);
      }),
      { numRuns: 1000 },
    );
  });

  it("verify, verifyAsync and the Web Crypto path agree on every input", async () => {
    // Headers signed over this body with one of the keys (valid, stale or future), over something else, or junk.
    const delivery = fc
      .record({
        payload: body,
        keys: fc.array(secret, { minLength: 1, maxLength: 3 }),
        now: fc.integer({ min: 1_000_000, max: 4_102_444_800 }),
        signer: fc.nat(3),
        skew: fc.integer({ min: -350, max: 350 }),
        kind: fc.constantFrom("signed", "signed", "tampered", "junk"),
        junk: fc.string({ maxLength: 120 }),
      })
      .map(({ payload, keys, now, signer, skew, kind, junk }) => {
        const key = keys[signer % keys.length] as string;
        const signedBody = kind === "tampered" ? Uint8Array.of(...payload, 0) : payload;
        const signed = sign(signedBody, key, { timestamp: now + skew });
        return { payload, keys, now, header: kind === "junk" ? junk : signed };
      });
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        (ok) => ({ ok }),
        (error: WebhookVerificationError) => ({ code: error.code }),
      );
    let verified = 0;
    await fc.assert(
      fc.asyncProperty(delivery, async ({ payload, keys, now, header }) => {
        const sync = await outcome(Promise.resolve().then(() => verify(payload, header, keys, at(now))));
        expect(await outcome(verifyAsync(payload, header, keys, at(now)))).toEqual(sync);
        const web = Promise.resolve()
          .then(() => matchSignature(parseVerifyArguments(payload, header, keys, at(now)), at(now), matchWithWebCrypto))
          .then(({ timestamp: t, secretIndex }) => ({ timestamp: t, secretIndex }));
        expect(await outcome(web)).toEqual(sync);
        if ("ok" in sync) verified++;
      }),
      { numRuns: 300 },
    );
    // Around a third of the runs verify: the agreement is tested on successes too, not only on failures.
    expect(verified).toBeGreaterThan(40);
  }, 60_000);
});
