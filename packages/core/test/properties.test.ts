import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeVerify, sign, verify, verifyAsync, WebhookVerificationError } from "../src";
import { matchWithWebCrypto } from "../src/crypto/web-crypto";
import { prepareVerification } from "../src/verification";
import { checkPreparedAsync } from "../src/verify-async";

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
    const headerFor = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.tuple(body, secret, timestamp).map(([p, k, t]) => sign(p, k, { timestamp: t })),
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        headerFor,
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        timestamp,
        async (p, h, keys, t) => {
          const outcome = (run: () => unknown) => {
            try {
              return { ok: run() };
            } catch (error) {
              return { code: (error as WebhookVerificationError).code };
            }
          };
          const settle = (promise: Promise<unknown>) =>
            promise.then(
              (ok) => ({ ok }),
              (error: WebhookVerificationError) => ({ code: error.code }),
            );
          const sync = outcome(() => verify(p, h, keys, at(t)));
          expect(await settle(verifyAsync(p, h, keys, at(t)))).toEqual(sync);
          const web = settle(
            Promise.resolve().then(() =>
              checkPreparedAsync(prepareVerification(p, h, keys, at(t)), at(t), matchWithWebCrypto),
            ),
          );
          expect(await web).toEqual(sync);
        },
      ),
      { numRuns: 300 },
    );
  });
});
