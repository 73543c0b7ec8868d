import { createHmac, randomBytes } from "node:crypto";
import { createReceiver, type ReceiveErrorInfo, type SecretResolver } from "@tidings/core";
import { github, type Scheme, standardWebhooks, stripe, svix } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";

const quiet = { error() {}, warn() {} };
const GOOD_WHSEC = `whsec_${randomBytes(24).toString("base64")}`;
// Secrets a sender never issues, and that verified nothing: each answered 500 on every request once a delivery
// reached it.
const MALFORMED: [string, Scheme, string][] = [
  ["a whsec_ that is not base64", standardWebhooks(), "whsec_not*base64!"],
  ["a 31-byte public key", standardWebhooks(), `whpk_${randomBytes(31).toString("base64")}`],
  ["an ed25519 secret key on the receiving side", svix(), `whsk_${randomBytes(32).toString("base64")}`],
  ["a Stripe secret without whsec_", stripe(), "stripe_endpoint_secret"],
  ["a Stripe test-mode API key", stripe(), "sk_test_51H8x2eLkdIwHu7ix"],
  ["a public key on an HMAC scheme", github(), `whpk_${randomBytes(32).toString("base64")}`],
];

function standardDelivery(secret: string) {
  const body = JSON.stringify({ type: "user.created", data: {} });
  return { rawBody: Buffer.from(body), headers: standardWebhooks().sign(body, secret) };
}

function forgedStandardDelivery() {
  const body = JSON.stringify({ type: "user.created", data: {} });
  const signature = createHmac("sha256", randomBytes(24)).update(body).digest("base64");
  const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) };
  return { rawBody: Buffer.from(body), headers: { ...headers, "webhook-signature": `v1,${signature}` } };
}

describe("secrets checked when the Receiver is created", () => {
  for (const [what, scheme, secret] of MALFORMED) {
    it(`refuses ${what}, alone or behind a good secret`, () => {
      expect(() => createReceiver({ scheme, secret, logger: quiet })).toThrow(TypeError);
      expect(() => createReceiver({ scheme, secret: [GOOD_WHSEC, secret], logger: quiet })).toThrow(TypeError);
    });
  }

  it("takes a secret one of the route's schemes accepts, though the others do not", () => {
    const secret = [GOOD_WHSEC, "whsec_stripe_endpoint", "a github secret"];
    expect(() =>
      createReceiver({ scheme: [standardWebhooks(), stripe(), github()], secret, logger: quiet }),
    ).not.toThrow();
  });
});

describe("secrets a resolver returns", () => {
  async function answers(scheme: Scheme, resolve: SecretResolver) {
    const reported: [unknown, ReceiveErrorInfo][] = [];
    const receiver = createReceiver({ scheme, secret: resolve, logger: quiet }).onError((error, info) => {
      reported.push([error, info]);
    });
    const forged = await receiver.receive(forgedStandardDelivery());
    const genuine = await receiver.receive(standardDelivery(GOOD_WHSEC));
    return { forged, genuine, reported };
  }

  it("answers a malformed one as a configuration error the sender retries, never a 500", async () => {
    for (const resolve of [
      () => ({ secret: [GOOD_WHSEC, "whsec_not*base64!"] }),
      async () => ({ secret: "whsec_not*base64!" }),
      () => ({ secret: `whpk_${randomBytes(31).toString("base64")}`, scheme: standardWebhooks() }),
    ] as SecretResolver[]) {
      const { forged, genuine, reported } = await answers(standardWebhooks(), resolve);
      expect([forged.status, forged.code, genuine.status, genuine.code]).toEqual([
        503,
        "secret_unavailable",
        503,
        "secret_unavailable",
      ]);
      expect(reported[0]?.[0]).toBeInstanceOf(TypeError);
      expect(reported[0]?.[1].code).toBe("secret_unavailable");
    }
  });

  it("checks against the scheme the resolver names", async () => {
    // Standard Webhooks takes the base64 without its prefix; Stripe's secrets are always whsec_.
    const bare = GOOD_WHSEC.slice("whsec_".length);
    const named = await answers(standardWebhooks(), () => ({ secret: bare, scheme: stripe() }));
    expect([named.forged.code, named.genuine.code]).toEqual(["secret_unavailable", "secret_unavailable"]);
    const route = await answers(standardWebhooks(), () => ({ secret: bare }));
    expect([route.forged.code, route.genuine.code]).toEqual(["signature_mismatch", "accepted"]);
  });

  it("verifies with good ones as before", async () => {
    const { forged, genuine } = await answers(standardWebhooks(), () => ({ secret: GOOD_WHSEC }));
    expect([forged.status, forged.code, genuine.status]).toEqual([400, "signature_mismatch", 200]);
  });
});
