// Each sender's own signing and verifying, as its library (or, for Slack and Shopify, which we cannot install, its
// documented algorithm exactly as the official SDK computes it) does it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
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
  otherSecret: string;
  /** Whether the scheme signs a time (so `timestamp_too_old` applies). */
  timed: boolean;
  /** Headers the sender's library sends with `body`, signed at `timestamp` (Unix seconds). */
  sign(body: string, secret: string, timestamp: number): Promise<Record<string, string>>;
  /** Whether the sender's library accepts the delivery (its own verifier), at its own clock. */
  accepts(body: string, headers: Record<string, string>, secret: string): Promise<boolean>;
}

const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const otherWhsec = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=";

function accepted(verify: () => unknown): Promise<boolean> {
  return Promise.resolve()
    .then(verify)
    .then(
      () => true,
      () => false,
    );
}

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

function equalText(a: string, b: string) {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export const SENDERS: readonly Sender[] = [
  {
    scheme: "standard-webhooks",
    secret: whsec,
    otherSecret: otherWhsec,
    timed: true,
    async sign(body, secret, timestamp) {
      const id = `msg_${timestamp}`;
      const signature = new StandardWebhook(secret).sign(id, new Date(timestamp * 1000), body);
      return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
    },
    accepts: (body, headers, secret) => accepted(() => new StandardWebhook(secret).verify(body, headers)),
  },
  {
    scheme: "svix",
    secret: whsec,
    otherSecret: otherWhsec,
    timed: true,
    async sign(body, secret, timestamp) {
      const id = `msg_${timestamp}`;
      const signature = new SvixWebhook(secret).sign(id, new Date(timestamp * 1000), body);
      return { "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": signature };
    },
    accepts: (body, headers, secret) => accepted(() => new SvixWebhook(secret).verify(body, headers)),
  },
  {
    scheme: "stripe",
    secret: "whsec_test_stripe_endpoint_secret",
    otherSecret: "whsec_test_rotated_endpoint_secret",
    timed: true,
    async sign(body, secret, timestamp) {
      return {
        "stripe-signature": stripeClient.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
      };
    },
    accepts: (body, headers, secret) =>
      accepted(() => stripeClient.webhooks.constructEvent(body, headers["stripe-signature"] ?? "", secret)),
  },
  {
    scheme: "github",
    secret: "It's a Secret to Everybody",
    otherSecret: "a rotated github secret",
    timed: false,
    async sign(body, secret) {
      return { "x-hub-signature-256": await octokitSign(secret, body) };
    },
    accepts: async (body, headers, secret) => {
      try {
        return await octokitVerify(secret, body, headers["x-hub-signature-256"] ?? "");
      } catch {
        return false;
      }
    },
  },
  {
    scheme: "shopify",
    secret: "shpss_client_secret",
    otherSecret: "shpss_rotated_client_secret",
    timed: false,
    async sign(body, secret) {
      return { "x-shopify-hmac-sha256": shopifyHmac(body, secret) };
    },
    accepts: async (body, headers, secret) =>
      equalText(shopifyHmac(body, secret), headers["x-shopify-hmac-sha256"] ?? ""),
  },
  {
    scheme: "slack",
    secret: "8f742231b10e8888abcd99yyyzzz85a5",
    otherSecret: "rotated0slack0signing0secret0000",
    timed: true,
    async sign(body, secret, timestamp) {
      return slackSign(body, secret, timestamp);
    },
    accepts: async (body, headers, secret) => {
      const timestamp = Number(headers["x-slack-request-timestamp"]);
      if (Math.abs(Date.now() / 1000 - timestamp) > 300) return false;
      return equalText(slackSign(body, secret, timestamp)["x-slack-signature"], headers["x-slack-signature"] ?? "");
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
