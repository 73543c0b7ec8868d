/**
 * Each sender's own verifier, by scheme name: handed the bytes received (decoded to text first where the SDK takes
 * only a string, or parsed where it takes only the parsed body: that work is part of its cost), the headers, the
 * secret. Each SDK is imported only by the process that measures its scheme. `run` returns false, throws or rejects
 * when the SDK refuses the delivery; an `async` one is awaited between verifications.
 */
import type { SchemeDelivery } from "./deliveries";

export interface Peer {
  name: string;
  run: () => unknown;
}

type PeerOf = (delivery: SchemeDelivery) => Promise<Peer>;

/** Event types the senders' SDKs insist on knowing (they refuse a delivery of any other): the body carries them. */
export const PEER_EVENT_TYPES: Readonly<Record<string, string>> = { liveblocks: "userEntered", polar: "order.paid" };

const header = (delivery: SchemeDelivery, name: string) => delivery.headers[name] ?? "";
const text = (payload: Buffer) => payload.toString();
const url = (delivery: SchemeDelivery) => delivery.request?.url ?? "";

/** Standard Webhooks' and Svix's headers under the names Resend's SDK takes them by. */
function svixParts(delivery: SchemeDelivery) {
  return {
    id: header(delivery, "svix-id"),
    timestamp: header(delivery, "svix-timestamp"),
    signature: header(delivery, "svix-signature"),
  };
}

const svixLibrary: PeerOf = async (delivery) => {
  const { Webhook } = await import("svix");
  const webhook = new Webhook(delivery.secret);
  return { name: "svix", run: () => webhook.verify(delivery.payload, delivery.headers) };
};

export const PEERS: Readonly<Record<string, PeerOf>> = {
  "standard-webhooks": async (delivery) => {
    if (delivery.kind !== "hmac") throw new Error("standardwebhooks verifies HMAC signatures only");
    const { Webhook } = await import("standardwebhooks");
    const webhook = new Webhook(delivery.secret);
    return { name: "standardwebhooks", run: () => webhook.verify(delivery.payload, delivery.headers) };
  },
  svix: svixLibrary,
  async stripe(delivery) {
    const { default: Stripe } = await import("stripe");
    const { webhooks } = new Stripe("sk_test_bench");
    const value = header(delivery, "stripe-signature");
    return { name: "stripe", run: () => webhooks.signature?.verifyHeader(delivery.payload, value, delivery.secret) };
  },
  async github(delivery) {
    const { verify } = await import("@octokit/webhooks-methods");
    const value = header(delivery, "x-hub-signature-256");
    // Octokit takes the body as a string only.
    return { name: "@octokit/webhooks-methods", run: () => verify(delivery.secret, text(delivery.payload), value) };
  },
  async shopify(delivery) {
    await import("@shopify/shopify-api/adapters/web-api");
    const { ApiVersion, shopifyApi } = await import("@shopify/shopify-api");
    const sdk = shopifyApi({
      apiKey: "bench-api-key",
      apiSecretKey: delivery.secret,
      hostName: "bench.example.com",
      apiVersion: ApiVersion.January26,
      isEmbeddedApp: false,
      logger: { level: 0 },
    });
    // The SDK's `validate` requires the topic, shop, version and id headers Shopify sends (unsigned).
    const headers = {
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": "bench.myshopify.com",
      "x-shopify-api-version": ApiVersion.January26,
      "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
      ...delivery.headers,
    };
    const body = text(delivery.payload);
    return {
      name: "@shopify/shopify-api",
      run: async () => {
        const rawRequest = new Request("https://bench.example.com/webhooks", { method: "POST", headers, body });
        return (await sdk.webhooks.validate({ rawBody: text(delivery.payload), rawRequest })).valid;
      },
    };
  },
  async slack(delivery) {
    const { isValidSlackRequest } = await import("@slack/bolt");
    const signature = header(delivery, "x-slack-signature");
    const timestamp = Number(header(delivery, "x-slack-request-timestamp"));
    return {
      name: "@slack/bolt",
      run: () =>
        isValidSlackRequest({
          signingSecret: delivery.secret,
          body: text(delivery.payload),
          headers: { "x-slack-signature": signature, "x-slack-request-timestamp": timestamp },
        }),
    };
  },
  async twilio(delivery) {
    const { default: sdk } = await import("twilio");
    const { parse } = await import("node:querystring");
    const signature = header(delivery, "x-twilio-signature");
    return {
      name: "twilio",
      run: () =>
        sdk.validateRequest(
          delivery.secret,
          signature,
          url(delivery),
          parse(text(delivery.payload)) as Record<string, string>,
        ),
    };
  },
  async square(delivery) {
    const { WebhooksHelper } = await import("square");
    const signatureHeader = header(delivery, "x-square-hmacsha256-signature");
    return {
      name: "square",
      run: () =>
        WebhooksHelper.verifySignature({
          requestBody: text(delivery.payload),
          signatureHeader,
          signatureKey: delivery.secret,
          notificationUrl: url(delivery),
        }),
    };
  },
  async hubspot(delivery) {
    const { Signature } = await import("@hubspot/api-client");
    const signature = header(delivery, "x-hubspot-signature-v3");
    const timestamp = Number(header(delivery, "x-hubspot-request-timestamp"));
    return {
      name: "@hubspot/api-client",
      run: () =>
        Signature.isValid({
          signatureVersion: "v3",
          signature,
          clientSecret: delivery.secret,
          requestBody: text(delivery.payload),
          url: url(delivery),
          timestamp,
          method: delivery.request?.method ?? "POST",
        }),
    };
  },
  async plivo(delivery) {
    // CommonJS: its functions are the module's own names under tsx, `default`'s under Node.
    const module = await import("plivo");
    const sdk = (module as unknown as Partial<typeof module.default>).validateV3Signature ? module : module.default;
    const { parse } = await import("node:querystring");
    const nonce = header(delivery, "x-plivo-signature-v3-nonce");
    const signature = header(delivery, "x-plivo-signature-v3");
    return {
      name: "plivo",
      run: () =>
        sdk.validateV3Signature(
          "POST",
          url(delivery),
          nonce,
          delivery.secret,
          signature,
          parse(text(delivery.payload)),
        ),
    };
  },
  async paddle(delivery) {
    const { Paddle } = await import("@paddle/paddle-node-sdk");
    // No request is sent: the client sets up the SDK's crypto.
    const { webhooks } = new Paddle("pdl_sdbx_apikey_01hv8x2acma2gz3he1xpmbqz0f_unused");
    const signature = header(delivery, "paddle-signature");
    return {
      name: "@paddle/paddle-node-sdk",
      run: () => webhooks.isSignatureValid(text(delivery.payload), delivery.secret, signature),
    };
  },
  async mux(delivery) {
    const { default: Mux } = await import("@mux/mux-node");
    const client = new Mux({ tokenId: "unused", tokenSecret: "unused", webhookSecret: delivery.secret });
    return {
      name: "@mux/mux-node",
      run: () => client.webhooks.verifySignature(text(delivery.payload), delivery.headers, delivery.secret),
    };
  },
  async workos(delivery) {
    const { WorkOS } = await import("@workos-inc/node");
    const { webhooks } = new WorkOS("sk_test_unused");
    const sigHeader = header(delivery, "workos-signature");
    return {
      name: "@workos-inc/node",
      run: () => webhooks.constructEvent({ payload: text(delivery.payload), sigHeader, secret: delivery.secret }),
    };
  },
  async linear(delivery) {
    const { LinearWebhookClient } = await import("@linear/sdk/webhooks");
    const client = new LinearWebhookClient(delivery.secret);
    const signature = header(delivery, "linear-signature");
    return { name: "@linear/sdk", run: () => client.verify(delivery.payload, signature) };
  },
  async line(delivery) {
    const { validateSignature } = await import("@line/bot-sdk");
    const signature = header(delivery, "x-line-signature");
    return {
      name: "@line/bot-sdk",
      run: () => validateSignature(text(delivery.payload), delivery.secret, signature),
    };
  },
  async clerk(delivery) {
    const { verifyWebhook } = await import("@clerk/backend/webhooks");
    // The SDK takes a Request and reads its body.
    return {
      name: "@clerk/backend",
      run: () =>
        verifyWebhook(
          new Request("https://bench.example.com/webhooks/clerk", {
            method: "POST",
            headers: delivery.headers,
            body: delivery.payload as Uint8Array<ArrayBuffer>,
          }),
          { signingSecret: delivery.secret },
        ),
    };
  },
  async resend(delivery) {
    const { Resend } = await import("resend");
    const client = new Resend("re_bench_api_key");
    const headers = svixParts(delivery);
    return {
      name: "resend",
      run: () => client.webhooks.verify({ payload: text(delivery.payload), headers, webhookSecret: delivery.secret }),
    };
  },
  async polar(delivery) {
    const { webhooks } = await import("@polar-sh/sdk/2027-01");
    return {
      name: "@polar-sh/sdk",
      run: () => webhooks.validateEvent(text(delivery.payload), delivery.headers, delivery.secret),
    };
  },
  async liveblocks(delivery) {
    const { WebhookHandler } = await import("@liveblocks/node");
    const handler = new WebhookHandler(delivery.secret);
    return {
      name: "@liveblocks/node",
      run: () => handler.verifyRequest({ headers: delivery.headers, rawBody: text(delivery.payload) }),
    };
  },
  async discord(delivery) {
    const { verifyKey } = await import("discord-interactions");
    const signature = header(delivery, "x-signature-ed25519");
    const timestamp = header(delivery, "x-signature-timestamp");
    return {
      name: "discord-interactions",
      run: () => verifyKey(delivery.payload, signature, timestamp, delivery.secret),
    };
  },
  async sendgrid(delivery) {
    const { EventWebhook, EventWebhookHeader } = await import("@sendgrid/eventwebhook");
    const webhook = new EventWebhook();
    const key = webhook.convertPublicKeyToECDSA(delivery.secret);
    const signature = header(delivery, EventWebhookHeader.SIGNATURE().toLowerCase());
    const timestamp = header(delivery, EventWebhookHeader.TIMESTAMP().toLowerCase());
    return {
      name: "@sendgrid/eventwebhook",
      run: () => webhook.verifySignature(key, delivery.payload, signature, timestamp),
    };
  },
  async telnyx(delivery) {
    const { default: Telnyx } = await import("telnyx");
    const client = new Telnyx({ apiKey: "KEY_bench", publicKey: delivery.secret });
    return {
      name: "telnyx",
      run: () => client.webhooks.unwrap(text(delivery.payload), { headers: delivery.headers }),
    };
  },
  async qstash(delivery) {
    const { Receiver } = await import("@upstash/qstash");
    const receiver = new Receiver({ currentSigningKey: delivery.secret, nextSigningKey: delivery.secret });
    const signature = header(delivery, "upstash-signature");
    return {
      name: "@upstash/qstash",
      run: () => receiver.verify({ signature, body: text(delivery.payload), url: url(delivery) }),
    };
  },
  async vonage(delivery) {
    const { verifySignature } = await import("@vonage/jwt");
    const { createHash } = await import("node:crypto");
    const token = header(delivery, "authorization").replace(/^Bearer /, "");
    // verifySignature checks the JWT alone: the body's hash in `payload_hash` is checked as Vonage's docs say.
    return {
      name: "@vonage/jwt + payload_hash",
      run: () => {
        if (!verifySignature(token, delivery.secret)) return false;
        const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
        return claims.payload_hash === createHash("sha256").update(delivery.payload).digest("hex");
      },
    };
  },
  async adyen(delivery) {
    const { hmacValidator } = await import("@adyen/api-library");
    const validator = new hmacValidator();
    // The SDK takes the notification item, parsed from the body.
    return {
      name: "@adyen/api-library",
      run: () =>
        validator.validateHMAC(
          JSON.parse(text(delivery.payload)).notificationItems[0].NotificationRequestItem,
          delivery.secret,
        ),
    };
  },
};
