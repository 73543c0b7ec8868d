import * as nodeCrypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameToken, TOKEN_MATCHERS } from "../../src/crypto/token-matchers";

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

  it("is the same bytes, whatever the lengths", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        expect(sameToken(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
        expect(sameToken(a, a.slice())).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
