import { webhooks } from "@polar-sh/sdk/2027-01";
import { polar } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { accepted, nowSeconds } from "./accepted";
import { describeSender } from "./harness";
import { standardSign } from "./standard-signer";

// Polar's secrets are text, not base64: Polar base64-encodes the whole string for the Standard Webhooks library, so
// the HMAC key is the text's UTF-8 bytes.
const SECRET = "polar_whs_PC8ViaeyUNK7tJMWr8IImhf1Uhjcnqn1lxZnm1BrbGg";
const BODY = JSON.stringify({
  type: "order.paid",
  timestamp: "2026-04-01T12:00:00Z",
  data: { id: "5bb0d2a2-3c7f-4f1f-9d4e-2b1f0c6a7e11", total_amount: 1900, note: "héllo ✓" },
});
const polarSign = (body: string, secret: string, timestamp: number) =>
  standardSign("webhook", Buffer.from(secret).toString("base64"), body, timestamp);

describeSender("Polar", {
  scheme: polar(),
  secret: SECRET,
  otherSecret: "polar_whs_rotated0endpoint0secret0000000000000000000",
  body: BODY,
  type: "order.paid",
  timed: true,
  sign: polarSign,
  accepts: (body, headers, secret) => accepted(() => webhooks.validateEvent(body, headers, secret)),
});

describe("Polar's secrets", () => {
  it("are never base64-decoded: a delivery keyed by the decoding of its text is refused, by the SDK too", async () => {
    const secret = "polar_whs_c2Vjb25k"; // the part after the prefix happens to be base64
    const headers = standardSign("webhook", "c2Vjb25k", BODY, nowSeconds());
    expect(await accepted(() => webhooks.validateEvent(BODY, headers, secret))).toBe(false);
    expect(() => polar().verify(BODY, headers, secret)).toThrow(/signature/i);
  });

  it("verify a whsec_<base64> one both ways, its text and its decoding, as the SDK does", async () => {
    const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    for (const headers of [polarSign(BODY, whsec, nowSeconds()), standardSign("webhook", whsec, BODY, nowSeconds())]) {
      expect(await accepted(() => webhooks.validateEvent(BODY, headers, whsec))).toBe(true);
      expect(polar().verify(BODY, headers, whsec).secretIndex).toBe(0);
      expect((await polar().verifyAsync(BODY, headers, ["polar_whs_other", whsec])).secretIndex).toBe(1);
    }
  });

  it("refuse an access token when the Receiver is made", () => {
    expect(() => polar().secretKind("polar_oat_0123456789abcdef")).toThrow(TypeError);
    expect(polar().secretKind(SECRET)).toBe("hmac");
  });
});
