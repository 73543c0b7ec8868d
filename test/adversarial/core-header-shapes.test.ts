import { createReceiver, SIGNATURE_HEADER, sign, WebhookVerificationError } from "@tidings/core";
import type { HeaderSource } from "@tidings/core/adapter";
import { github, serviceSignature, standardWebhooks, stripe } from "@tidings/core/schemes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = new TextEncoder().encode('{"id":"evt_1","type":"message.sent"}');
const SCHEMES = [serviceSignature(), stripe(), github(), standardWebhooks()];

/** What a verification may do with any headers: succeed, or throw its own typed error. */
function outcomeOf(verify: () => unknown): string {
  try {
    verify();
    return "verified";
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
}

const HOSTILE: Record<string, unknown> = {
  "null headers": null,
  "a number for headers": 42,
  "a Map holding an array": new Map([[SIGNATURE_HEADER, ["t=1", "v1=00"]]]),
  "a Map holding a number": new Map([[SIGNATURE_HEADER, 7]]),
  "a number value": { [SIGNATURE_HEADER]: 1_700_000_000 },
  "a nested list": { [SIGNATURE_HEADER]: [["t=1,v1=00"]] },
  "an object value": { [SIGNATURE_HEADER]: { t: 1 } },
};

describe("headers that are not text", () => {
  it.each(Object.entries(HOSTILE))("%s: every scheme's verify throws WebhookVerificationError", (_name, headers) => {
    for (const scheme of SCHEMES)
      expect(outcomeOf(() => scheme.verify(BODY, headers as HeaderSource, SECRET))).not.toBe("verified");
  });

  it.each(Object.entries(HOSTILE))("%s: the Receiver answers 400, not 500", async (_name, headers) => {
    const receiver = createReceiver({ secret: SECRET, logger: { error() {}, warn() {} } });
    const answer = await receiver.receive({ rawBody: BODY, headers: headers as HeaderSource });
    expect(answer.status).toBe(400);
  });

  it("any value under any header name: verified, or a typed error, never another throw", () => {
    const value = fc.oneof(fc.anything(), fc.array(fc.anything()), fc.constant(sign(BODY, SECRET)));
    const headers = fc.oneof(
      fc.dictionary(fc.constantFrom(SIGNATURE_HEADER, "stripe-signature", "x-hub-signature-256", "webhook-id"), value),
      fc
        .dictionary(fc.constantFrom(SIGNATURE_HEADER, "stripe-signature"), value)
        .map((entries) => new Map(Object.entries(entries))),
      fc.anything(),
    );
    fc.assert(
      fc.property(headers, (source) => {
        for (const scheme of SCHEMES) outcomeOf(() => scheme.verify(BODY, source as HeaderSource, SECRET));
      }),
      { numRuns: 2000 },
    );
  });
});
