import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";

/**
 * Peer libraries, each set up with its own scheme. Stripe's signature header is the same `t=…,v1=…` HMAC-SHA256
 * over `${t}.` + body, so it verifies our `sign` output as is; the other two are for context only.
 */
export interface Peers {
  stripeVerify(body: Buffer, header: string): boolean;
  standardWebhooks(body: Buffer, timestamp: number): () => void;
  octokit(bodyText: string): Promise<() => Promise<void>>;
}

/** Far beyond any round's length: Stripe's tolerance is only a check of our fixture's age. */
const STRIPE_TOLERANCE_SECONDS = 24 * 60 * 60;

export function createPeers(secret: string): Peers {
  const stripe = new Stripe("sk_test_bench_not_a_real_key");
  const signature = stripe.webhooks.signature;
  if (signature === null) throw new Error("stripe.webhooks.signature is missing");
  // Standard Webhooks keys are base64; this one encodes the same secret bytes.
  const standard = new Webhook(Buffer.from(secret).toString("base64"));
  return {
    stripeVerify: (body, header) => signature.verifyHeader(body, header, secret, STRIPE_TOLERANCE_SECONDS),
    standardWebhooks(body, timestamp) {
      const id = "msg_bench";
      const headers = {
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": standard.sign(id, new Date(timestamp * 1000), body),
      };
      // jsonParse: false, as `verify` does not parse either.
      return () => {
        standard.verify(body, headers, { jsonParse: false });
      };
    },
    async octokit(bodyText) {
      const header = await octokitSign(secret, bodyText);
      return async () => {
        if (!(await octokitVerify(secret, bodyText, header))) throw new Error("octokit: signature mismatch");
      };
    },
  };
}
