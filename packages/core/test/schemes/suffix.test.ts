import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defineScheme, hmacMatchers, requiredHeader, type SchemeParts } from "../../src/entries/schemes";

// A sender that signs the body followed by a timestamp header, HubSpot-like: `X-Acme-Signature: <hex HMAC-SHA256>`.
const partsOf = (named: boolean): SchemeParts => ({
  name: "acme",
  signatureHeader: "x-acme-signature",
  read: (payload, headers, secrets, toleranceSeconds) => ({
    content: {
      prefix: "POST",
      payload,
      suffix: requiredHeader(headers, "x-acme-time", "X-Acme-Time"),
      signatures: [requiredHeader(headers, "x-acme-signature", "X-Acme-Signature")],
      ...(named ? { matchers: hmacMatchers("sha256") } : {}),
    },
    secrets,
    timestamp: undefined,
    toleranceSeconds,
  }),
  typeOf: () => "event",
  idOf: () => undefined,
  sign: () => ({}),
});

const body = '{"id":1}';
const headers = {
  "x-acme-time": "1700000000000",
  "x-acme-signature": createHmac("sha256", "secret").update(`POST${body}1700000000000`).digest("hex"),
};

describe("a signed content's suffix", () => {
  it("is signed after the body, by hmacMatchers, sync and async", async () => {
    const scheme = defineScheme(partsOf(true));
    expect(scheme.verify(body, headers, "secret").secretIndex).toBe(0);
    expect((await scheme.verifyAsync(body, headers, "secret")).secretIndex).toBe(0);
    expect(() => scheme.verify(body, { ...headers, "x-acme-time": "1700000000001" }, "secret")).toThrow(
      /No v1 signature matches/,
    );
  });

  it("is refused with a TypeError where the content names no matchers, as the default HMAC-SHA256 signs none", () => {
    expect(() => defineScheme(partsOf(false)).verify(body, headers, "secret")).toThrow(TypeError);
  });
});
