import { stripe } from "@tidings/core/schemes";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { accepted, nowSeconds } from "./accepted";
import { describeSender } from "./harness";

const client = new Stripe("sk_test_interop");
const SECRET = "whsec_test_stripe_endpoint_secret";
const BODY = JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid", data: { object: { amount: 42 } } });

const stripeSign = (body: string, secret: string, timestamp: number) => ({
  "stripe-signature": client.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
});

describeSender("Stripe", {
  scheme: stripe(),
  secret: SECRET,
  otherSecret: "whsec_test_rotated_endpoint_secret",
  body: BODY,
  type: "invoice.paid",
  timed: true,
  sign: stripeSign,
  accepts: (body, headers, secret) =>
    accepted(() => client.webhooks.constructEvent(body, headers["stripe-signature"] ?? "", secret)),
});

describe("Stripe's header", () => {
  it("takes any of several v1 and ignores v0, as constructEvent does", () => {
    const header = stripeSign(BODY, SECRET, nowSeconds())["stripe-signature"];
    const [t, v1] = header.split(",");
    const mixed = `${t},v0=${"0".repeat(64)},v1=${"1".repeat(64)},${v1}`;
    expect(client.webhooks.constructEvent(BODY, mixed, SECRET).id).toBe("evt_1");
    expect(stripe().verify(BODY, { "stripe-signature": mixed }, SECRET).secretIndex).toBe(0);
  });
});
