import * as crypto from "node:crypto";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hmacMatchers } from "../../src/entries/schemes";

const ALGORITHMS = ["sha1", "sha256", "sha512"] as const;
const encoder = new TextEncoder();

describe.each(ALGORITHMS)("hmacMatchers(%s)", (algorithm) => {
  const matchers = hmacMatchers(algorithm);
  const contentOf = (prefix: string, body: string, signatures: string[], encoding?: "base64") => ({
    prefix,
    payload: encoder.encode(body),
    signatures,
    encoding,
  });

  it("matches the sender's HMAC of prefix + body under the secret that made it, node:crypto and Web Crypto alike", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.boolean(),
        async (prefix, body, secret, base64) => {
          const encoding = base64 ? "base64" : "hex";
          const signature = createHmac(algorithm, secret).update(prefix).update(body).digest(encoding);
          const content = contentOf(prefix, body, ["00", signature], base64 ? "base64" : undefined);
          const match = { secretIndex: 1, signature };
          expect(matchers.node(crypto, content, ["other", secret])).toEqual(match);
          expect(await matchers.web(content, ["other", secret])).toEqual(match);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("matches nothing when a byte of the body changed or the secret is another", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), async (body, secret) => {
        const signature = createHmac(algorithm, secret).update(body).digest("hex");
        const changed = contentOf("", `${body}!`, [signature]);
        expect(matchers.node(crypto, changed, [secret])).toBeUndefined();
        expect(await matchers.web(changed, [secret])).toBeUndefined();
        const other = contentOf("", body, [signature]);
        expect(matchers.node(crypto, other, [`${secret}!`])).toBeUndefined();
        expect(await matchers.web(other, [`${secret}!`])).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });

  it("skips a secret its format makes no key of, such as an ed25519 key", async () => {
    const signature = createHmac(algorithm, "whpk_abc").update("{}").digest("hex");
    const content = contentOf("", "{}", [signature]);
    expect(matchers.node(crypto, content, ["whpk_abc"])).toBeUndefined();
    expect(await matchers.web(content, ["whpk_abc"])).toBeUndefined();
  });
});
