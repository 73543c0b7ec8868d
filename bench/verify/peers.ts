import Stripe from "stripe";

/** Far beyond any round's length: Stripe's tolerance is only a check of our fixture's age. */
const STRIPE_TOLERANCE_SECONDS = 24 * 60 * 60;

/**
 * Stripe's `verifyHeader`, the peer with the same scheme: its header is the same `t=…,v1=…` HMAC-SHA256 over
 * `${t}.` + body, so it verifies our `sign` output as is.
 */
export function stripeVerifier(secret: string): (body: Buffer, header: string) => boolean {
  const signature = new Stripe("sk_test_bench_not_a_real_key").webhooks.signature;
  if (signature === null) throw new Error("stripe.webhooks.signature is missing");
  return (body, header) => signature.verifyHeader(body, header, secret, STRIPE_TOLERANCE_SECONDS);
}
