import * as nodeCrypto from "node:crypto";
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64UrlBytes } from "../../src/crypto/base64";
import { qstash, vonage } from "../../src/entries/schemes";
import { isBase64Url32, readHs256Jwt, readHs256JwtGeneral } from "../../src/schemes/jwt-hs256";

const NUM_RUNS = 3000;
const HEADER = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url");
const url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** What a read returns, or the code and message it throws. */
function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

/** A JSON value a part may hold: mostly objects (claims), and what is not one. */
const part = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const partText = fc.oneof(
  { weight: 4, arbitrary: part.map((value) => Buffer.from(JSON.stringify(value)).toString("base64url")) },
  // Bytes that need not be UTF-8 nor JSON.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map(url) },
);
const ALPHABET = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.é"];
/** 32 bytes of base64url, its last character any (most are not canonical there). */
const anyLast = fc
  .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(...ALPHABET))
  .map(([bytes, last]) => url(bytes).slice(0, 42) + last);
const signatureText = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map(url) },
  { weight: 2, arbitrary: anyLast },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 48 }).map(url) },
);
/** Tokens as senders write them: the header they write, claims, a 32-byte signature. */
const canonical = fc.tuple(partText, signatureText).map(([claims, signature]) => `${HEADER}.${claims}.${signature}`);
/** The same with one character put in, replaced or taken out, anywhere. */
const nearMiss = fc
  .tuple(canonical, fc.nat(), fc.constantFrom("", ".", "=", "+", "/", "-", "_", "A", "B", "Q", "0", " ", "é", "Ł", "!"))
  .chain(([token, index, char]) =>
    fc.constantFrom(0, 1).map((replace) => {
      const at = index % (token.length + 1);
      return token.slice(0, at) + char + token.slice(at + replace);
    }),
  );

describe("HS256 JWTs: the path for the header senders write", () => {
  it("property: it returns what the general path returns, for any token", () => {
    fc.assert(
      fc.property(fc.oneof(canonical, nearMiss), (token) => {
        expect(outcome(() => readHs256Jwt(token, "X-Token"))).toEqual(
          outcome(() => readHs256JwtGeneral(token, "X-Token")),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("property: 32 bytes of base64url are checked by character codes as decoding and encoding again checks them", () => {
    const text = fc.oneof(
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map(url),
      anyLast,
      anyLast.map((value) => `${value}=`),
      fc.stringMatching(/^[A-Za-z0-9_+/=. é-]{42,45}$/),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(isBase64Url32(value, false)).toBe(value.length === 43 && base64UrlBytes(value) !== undefined);
        const unpadded = value.endsWith("=") ? value.slice(0, -1) : undefined;
        expect(isBase64Url32(value, true)).toBe(unpadded?.length === 43 && base64UrlBytes(unpadded) !== undefined);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("the body's hash a claim carries", () => {
  const NOW = 1_764_324_000;
  const at = { now: () => NOW * 1000 };
  const body = '{"a":1}';
  const digest = createHash("sha256").update(body).digest();
  const jwt = (claims: object) => {
    const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
    return `${input}.${createHmac("sha256", "k").update(input).digest("base64url")}`;
  };
  const code = (verify: () => unknown) => (outcome(verify) as { code?: string } | undefined)?.code;

  it("property: a match spells the signature in standard base64 on both paths, the dedup key where no id is given", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 12 }), async (salt) => {
        const token = jwt({ iat: NOW, payload_hash: digest.toString("hex"), salt });
        const sent = token.slice(token.lastIndexOf(".") + 1);
        const headers = { authorization: `Bearer ${token}` };
        const { content, secrets } = vonage().read(new TextEncoder().encode(body), headers, ["k"], 300);
        const standard = Buffer.from(sent, "base64url").toString("base64");
        expect(content.matchers?.node(nodeCrypto, content, secrets)?.signature).toBe(standard);
        expect((await content.matchers?.web(content, secrets))?.signature).toBe(standard);
        await expect(vonage().verifyAsync(body, headers, "k", at)).resolves.toMatchObject({ secretIndex: 0 });
      }),
      { numRuns: 200 },
    );
  });

  it("property: Vonage's payload_hash is 64 hex digits of either case, and only that", () => {
    const hex = digest.toString("hex");
    const text = fc.oneof(
      fc.constant(hex),
      fc.constant(hex.toUpperCase()),
      fc.stringMatching(/^[0-9a-fA-F]{64}$/),
      fc
        .tuple(fc.nat(63), fc.constantFrom("g", "G", "x", " ", "é", "Ł", "İ", "\u212a", "-", "0", "F"), fc.boolean())
        .map(([index, char, upper]) => (upper ? hex.toUpperCase() : hex).slice(0, index) + char + hex.slice(index + 1)),
      fc.string({ minLength: 62, maxLength: 66 }),
    );
    fc.assert(
      fc.property(text, (payloadHash) => {
        const got = code(() =>
          vonage().verify(body, { authorization: `Bearer ${jwt({ iat: NOW, payload_hash: payloadHash })}` }, "k", at),
        );
        const wellFormed = /^[0-9a-fA-F]{64}$/.test(payloadHash);
        expect(got).toBe(
          !wellFormed ? "malformed_header" : payloadHash.toLowerCase() === hex ? undefined : "signature_mismatch",
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("property: QStash's body claim is 43 characters of canonical base64url, one `=` after them or none", () => {
    const request = { method: "POST", url: "https://hooks.example.com/in" };
    const claims = { iss: "Upstash", sub: request.url, nbf: NOW, exp: NOW + 300 };
    const plain = digest.toString("base64url");
    const text = fc.oneof(
      fc.constantFrom(plain, `${plain}=`, `${plain}==`, ` ${plain}`),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => url(bytes)),
      fc
        .tuple(fc.nat(43), fc.constantFrom("+", "/", "=", ".", " ", "é", "B", "A", "-"))
        .map(([index, char]) => `${plain}=`.slice(0, index) + char + `${plain}=`.slice(index + 1)),
    );
    fc.assert(
      fc.property(text, (claim) => {
        const got = code(() =>
          qstash().verify(body, { "upstash-signature": jwt({ ...claims, body: claim }) }, "k", { ...at, request }),
        );
        const unpadded = claim.endsWith("=") ? claim.slice(0, -1) : claim;
        const bytes = unpadded.length === 43 ? base64UrlBytes(unpadded) : undefined;
        const expected =
          bytes === undefined
            ? "malformed_header"
            : Buffer.from(bytes).equals(digest)
              ? undefined
              : "signature_mismatch";
        expect(got).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
