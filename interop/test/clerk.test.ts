import { verifyWebhook } from "@clerk/backend/webhooks";
import { clerk } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { accepted, nowSeconds } from "./accepted";
import { codeOf, describeSender } from "./harness";
import { standardSign } from "./standard-signer";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = JSON.stringify({
  object: "event",
  type: "user.created",
  data: { id: "user_29w83sxmDNGwOuEthce5gg56FcC", email_addresses: [{ email_address: "héllo@example.org" }] },
  timestamp: 1_654_012_591_835,
  instance_id: "ins_123",
});

const clerkRequest = (body: string, headers: Record<string, string>) =>
  new Request("https://example.com/webhooks/clerk", { method: "POST", headers, body });

describeSender("Clerk", {
  scheme: clerk(),
  secret: SECRET,
  otherSecret: "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=",
  body: BODY,
  type: "user.created",
  timed: true,
  sign: (body, secret, timestamp) => standardSign("svix", secret, body, timestamp),
  accepts: (body, headers, secret) =>
    accepted(() => verifyWebhook(clerkRequest(body, headers), { signingSecret: secret })),
});

describe("Clerk's headers", () => {
  it("are svix-* only: webhook-* ones are missing, to the SDK and to the scheme", async () => {
    const headers = standardSign("webhook", SECRET, BODY, nowSeconds());
    expect(await accepted(() => verifyWebhook(clerkRequest(BODY, headers), { signingSecret: SECRET }))).toBe(false);
    expect(await codeOf(() => clerk().verify(BODY, headers, SECRET))).toBe("missing_header");
  });

  it("refuses a secret that is not whsec_<base64> when the Receiver is made", () => {
    expect(() => clerk().secretKind("sk_test_clerk_api_key!")).toThrow(TypeError);
    expect(clerk().secretKind(SECRET)).toBe("hmac");
  });
});
