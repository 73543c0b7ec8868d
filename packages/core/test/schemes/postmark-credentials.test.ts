import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { credentials, sentCredentials } from "../../src/schemes/postmark";

/** What `credentials` returns for a header, or the message it throws. */
function read(value: string): string {
  try {
    return `credentials ${credentials(value)}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

const utf8 = (text: string) => Buffer.from(new TextEncoder().encode(text));
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "B", "0", ":", " ", "+", "/", "=") },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom("\uFEFF", "\uD800", "\uDC00", "é", "\uD83D\uDE00") },
);
const secret = fc.string({ unit, minLength: 1, maxLength: 12 });

/** The header a secret's sender writes, and the ways one differs from it. */
function headersOf(one: string): fc.Arbitrary<string> {
  const sent = utf8(one).toString("base64");
  return fc.oneof(
    fc.constant(`Basic ${sent}`),
    fc.constantFrom("basic", "BASIC", "bAsIc", "Bearer", "Basic ", "Basic\t").map((name) => `${name} ${sent}`),
    fc
      .constantFrom(sent.replace(/=+$/, ""), `${sent}=`, ` ${sent}`, `${sent} `, sent.replace(/.$/, "A"))
      .map((text) => `Basic ${text}`),
    fc.nat({ max: sent.length + 5 }).map((at) => `Basic ${sent.slice(0, at)}x${sent.slice(at + 1)}`),
  );
}

describe("postmark's header as its sender writes it", () => {
  it("reads the credentials credentials() reads, or leaves the header to it", () => {
    const header = fc.oneof(fc.string({ unit, maxLength: 30 }), secret.chain(headersOf));
    fc.assert(
      fc.property(fc.array(secret, { maxLength: 3 }), header, (secrets, value) => {
        const fast = sentCredentials(value, secrets);
        if (fast !== undefined) expect(`credentials ${fast}`).toBe(read(value));
      }),
      { numRuns: 5000 },
    );
  });

  it("finds every secret's own header that credentials() reads, whichever place the secret has", () => {
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 3 }), fc.nat(), (secrets, at) => {
        const one = secrets[at % secrets.length] as string;
        const value = `Basic ${utf8(one).toString("base64")}`;
        const general = read(value);
        expect(sentCredentials(value, secrets)).toBe(
          general.startsWith("credentials ") ? general.slice("credentials ".length) : undefined,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
