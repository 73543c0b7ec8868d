import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hubspotUri } from "../../src/schemes/hubspot";
import { LINEAR } from "../../src/schemes/linear";
import { signedJsonBody } from "../../src/schemes/signed-body";
import { digitsValue } from "../../src/verification/digits";
import { isTimestampText } from "../../src/verification/formats";
import { normalizeSecrets, type Secret } from "../../src/verification/secrets";

// Each fast path against the general way it stands in for, written out here as it was.
const DECODED = /%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi;
const uriByRegex = (url: string) =>
  url.replace(DECODED, (escaped) => String.fromCharCode(Number.parseInt(escaped.slice(1), 16)));

const outcome = <T>(run: () => T): { value: T } | { error: string } => {
  try {
    return { value: run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
};

const digitText = fc.oneof(
  fc.stringMatching(/^[0-9]{0,17}$/),
  fc.string({ maxLength: 17 }),
  fc.constantFrom(
    "",
    "0",
    "000",
    "1764324000",
    "1764324000123",
    "999999999999999",
    "1000000000000000",
    " 1",
    "1 ",
    "+1",
    "-1",
    "1e3",
    "0x1",
    "1.0",
    "٣",
  ),
);

describe("the fast paths of body- and URL-signed schemes", () => {
  it("digitsValue is Number(text) where isTimestampText admits the text, and -1 elsewhere", () => {
    fc.assert(
      fc.property(digitText, (text) => {
        expect(digitsValue(text)).toBe(isTimestampText(text) ? Number(text) : -1);
      }),
      { numRuns: 2000 },
    );
  });

  it("hubspotUri returns what the decoding regex returns, with or without a %", () => {
    const escaped = fc.constantFrom(
      "%3A",
      "%3a",
      "%2F",
      "%3F",
      "%40",
      "%21",
      "%24",
      "%27",
      "%28",
      "%29",
      "%2A",
      "%2c",
      "%3B",
      "%20",
      "%25",
      "%",
      "%2",
    );
    const part = fc.oneof(fc.webSegment(), escaped, fc.string({ maxLength: 8 }));
    const url = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.array(part).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(url, (text) => {
        expect(hubspotUri(text)).toBe(uriByRegex(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("a scheme's verify gives for one secret what it gives for a list of it, and refuses what normalizeSecrets refuses", () => {
    const now = 1_764_324_000_000;
    const body = new TextEncoder().encode(`{"type":"Issue","action":"create","webhookTimestamp":${now}}`);
    const headers = LINEAR.sign(body, "s3cret");
    const options = { now: () => now };
    const secret = fc.oneof(
      fc.constantFrom("s3cret", "other", ""),
      fc.string({ maxLength: 8 }),
      fc.array(fc.oneof(fc.constant("s3cret"), fc.string({ maxLength: 4 })), { maxLength: 3 }),
      fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null)), { maxLength: 3 }),
      fc.constantFrom(undefined, null, 7, {}),
    );
    fc.assert(
      fc.property(secret, (value) => {
        const got = outcome(() => LINEAR.verify(body, headers, value as Secret, options));
        const normalized = outcome(() => normalizeSecrets(value as Secret));
        if ("error" in normalized) expect(got).toEqual(normalized);
        else expect(got).toEqual(outcome(() => LINEAR.verify(body, headers, [...normalized.value], options)));
      }),
      { numRuns: 1000 },
    );
  });

  it("a body-signed scheme takes exactly the Content-Types the regex admits", () => {
    const body = new TextEncoder().encode("{}");
    const type = fc.oneof(
      fc.constantFrom(
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        "application/jsonx",
        "application/json-patch+json",
        "application/json;",
        "text/json",
        "application/jso",
      ),
      fc.string({ maxLength: 24 }).map((tail) => `application/json${tail}`),
      fc.string({ maxLength: 24 }),
    );
    fc.assert(
      fc.property(type, (contentType) => {
        const trimmed = contentType.trim();
        const taken = outcome(() => signedJsonBody(body, { "content-type": contentType }, "Mailgun"));
        if (trimmed === "") expect(taken).toEqual({ error: "WebhookVerificationError: No Content-Type header." });
        else if (/^application\/json\b/i.test(trimmed)) expect(taken).toEqual({ value: {} });
        else
          expect(taken).toEqual({
            error: "WebhookVerificationError: Malformed Content-Type header: Mailgun signs inside a JSON body.",
          });
      }),
      { numRuns: 2000 },
    );
  });
});
