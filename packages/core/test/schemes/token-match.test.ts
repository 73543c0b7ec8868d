import * as nodeCrypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UTF8_SECRET } from "../../src/crypto/secret-kind";
import { expectedToken, sameToken, TOKEN_MATCHERS } from "../../src/crypto/token-matchers";

/** node:crypto, counting the hashes made through it. */
function countingCrypto() {
  const counted = { hashes: 0 };
  const crypto = {
    ...nodeCrypto,
    createHash: (algorithm: string) => {
      counted.hashes++;
      return nodeCrypto.createHash(algorithm);
    },
  } as typeof nodeCrypto;
  return { crypto, counted };
}

describe("a shared token's match", () => {
  it("hashes the body only when its dedup key is read: a standalone verify, which returns none, never does", () => {
    const body = new TextEncoder().encode('{"object_kind":"push"}');
    const content = { prefix: "", payload: body, signatures: ["token-b"] };
    const { crypto, counted } = countingCrypto();
    const match = TOKEN_MATCHERS.node(crypto, content, ["token-a", "token-b"]);
    expect(match?.secretIndex).toBe(1);
    expect(counted.hashes).toBe(0);
    expect(match?.signature).toBe(nodeCrypto.createHash("sha256").update(body).digest("hex"));
    expect(match?.signature).toBe(match?.signature);
    expect(counted.hashes).toBe(1);
    expect(TOKEN_MATCHERS.node(crypto, { ...content, signatures: ["token-c"] }, ["token-a", "token-b"])).toBe(
      undefined,
    );
  });

  it("is the same UTF-8 bytes, whatever the text and the lengths", () => {
    const utf8 = (text: string) => Buffer.from(new TextEncoder().encode(text));
    // Any UTF-16 code unit, lone surrogates included, and runs long enough to need more room than is kept.
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
      fc
        .tuple(fc.string({ maxLength: 3 }), fc.integer({ min: 300, max: 30_000 }))
        .map(([part, times]) => part.repeat(times)),
    );
    fc.assert(
      fc.property(text, fc.uint8Array({ maxLength: 40 }), (received, other) => {
        expect(sameToken(received, expectedToken(other))).toBe(utf8(received).equals(Buffer.from(other)));
        expect(sameToken(received, expectedToken(utf8(received)))).toBe(true);
        const longer = Buffer.concat([utf8(received), Buffer.from([0])]);
        expect(sameToken(received, expectedToken(longer))).toBe(false);
        expect(sameToken(`${received}\0`, expectedToken(utf8(received)))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("matches the first secret whose bytes are the token's, as the secrets change from call to call", () => {
    const utf8 = (text: string) => Buffer.from(new TextEncoder().encode(text));
    const secret = fc.constantFrom("a", "b", "ab", "a:b", "é", "\uD800", "\uFFFD", "whpk_x");
    fc.assert(
      fc.property(
        fc.array(fc.record({ token: secret, secrets: fc.array(secret, { minLength: 1, maxLength: 4 }) })),
        (calls) => {
          for (const { token, secrets } of calls) {
            const content = { prefix: "", payload: new Uint8Array(), signatures: [token], format: UTF8_SECRET };
            const expected = secrets.findIndex((one) => {
              const bytes = UTF8_SECRET.keyBytes(one);
              return bytes !== undefined && Buffer.from(bytes).equals(utf8(token));
            });
            const match = TOKEN_MATCHERS.node(nodeCrypto, content, secrets);
            expect(match?.secretIndex ?? -1).toBe(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
