// How each sender signs, as its own library does (Slack and Shopify: their documented algorithm, as their SDKs compute
// it), for the adapter suite's deliveries. The SDKs' own verifiers, both directions, are the interop workspace's.
import { createHmac } from "node:crypto";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import type { Scheme } from "@tidings/core/schemes";
import * as schemes from "@tidings/core/schemes";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as SvixWebhook } from "svix";

const stripeClient = new Stripe("sk_test_interop");

export interface Sender {
  /** The scheme's name in `@tidings/core/schemes`. */
  scheme: "standard-webhooks" | "svix" | "stripe" | "github" | "shopify" | "slack";
  secret: string;
  /** Whether the scheme signs a time (so `timestamp_too_old` applies). */
  timed: boolean;
  /** Headers the sender's library sends with `body`, signed at `timestamp` (Unix seconds). */
  sign(body: string, secret: string, timestamp: number): Promise<Record<string, string>>;
}

const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

// Slack's SDKs (@slack/bolt's verifySlackRequest, slack_sdk's SignatureVerifier): "v0:" + timestamp + ":" + body,
// HMAC-SHA256 keyed by the signing secret, hex, sent as v0=<hex>; requests older than 5 minutes refused.
function slackSign(body: string, secret: string, timestamp: number) {
  const hex = createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex");
  return { "x-slack-request-timestamp": String(timestamp), "x-slack-signature": `v0=${hex}` };
}

// Shopify's SDK (@shopify/shopify-api's validateHmac for webhooks): HMAC-SHA256 of the raw body keyed by the app's
// client secret, base64, compared with X-Shopify-Hmac-Sha256 in constant time.
function shopifyHmac(body: string, secret: string) {
  return createHmac("sha256", secret).update(body).digest("base64");
}

export const SENDERS: readonly Sender[] = [
  {
    scheme: "standard-webhooks",
    secret: whsec,
    timed: true,
    async sign(body, secret, timestamp) {
      const id = `msg_${timestamp}`;
      const signature = new StandardWebhook(secret).sign(id, new Date(timestamp * 1000), body);
      return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
    },
  },
  {
    scheme: "svix",
    secret: whsec,
    timed: true,
    async sign(body, secret, timestamp) {
      const id = `msg_${timestamp}`;
      const signature = new SvixWebhook(secret).sign(id, new Date(timestamp * 1000), body);
      return { "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": signature };
    },
  },
  {
    scheme: "stripe",
    secret: "whsec_test_stripe_endpoint_secret",
    timed: true,
    async sign(body, secret, timestamp) {
      return {
        "stripe-signature": stripeClient.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
      };
    },
  },
  {
    scheme: "github",
    secret: "It's a Secret to Everybody",
    timed: false,
    async sign(body, secret) {
      return { "x-hub-signature-256": await octokitSign(secret, body) };
    },
  },
  {
    scheme: "shopify",
    secret: "shpss_client_secret",
    timed: false,
    async sign(body, secret) {
      return { "x-shopify-hmac-sha256": shopifyHmac(body, secret) };
    },
  },
  {
    scheme: "slack",
    secret: "8f742231b10e8888abcd99yyyzzz85a5",
    timed: true,
    async sign(body, secret, timestamp) {
      return slackSign(body, secret, timestamp);
    },
  },
];

export function schemeOf(name: Sender["scheme"]): Scheme {
  const byName: Record<Sender["scheme"], () => Scheme> = {
    "standard-webhooks": schemes.standardWebhooks,
    svix: schemes.svix,
    stripe: schemes.stripe,
    github: schemes.github,
    shopify: schemes.shopify,
    slack: schemes.slack,
  };
  return byName[name]();
}
