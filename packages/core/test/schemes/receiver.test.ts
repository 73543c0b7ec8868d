import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryContext, type SecretRequest } from "../../src/entries";
import { github, type Scheme, shopify, slack, standardWebhooks, stripe, svix } from "../../src/entries/schemes";
import { bodyOf, quietLogger } from "../receiver-fixtures";

const encoder = new TextEncoder();

/** A delivery signed the scheme's way, with extra headers the sender also sends. */
function delivery(scheme: Scheme, secret: string, payload: unknown, extra: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  return { rawBody: encoder.encode(body), headers: { ...scheme.sign(body, secret), ...extra } };
}

const STRIPE_SECRET = "whsec_stripe_endpoint";
const GITHUB_SECRET = "github hook secret";

describe("a Receiver with a scheme", () => {
  it("dispatches Stripe events by their type and dedups by their id", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: stripe(), secret: STRIPE_SECRET, logger: quietLogger }).on(
      "invoice.paid",
      (event, context) => {
        seen.push(`${(event as { id?: string }).id} ${context.deliveryKey}`);
      },
    );
    const paid = delivery(stripe(), STRIPE_SECRET, { id: "evt_9", type: "invoice.paid", data: { object: {} } });
    expect((await receiver.receive(paid)).status).toBe(200);
    expect(bodyOf(await receiver.receive(paid)).duplicate).toBe(true);
    expect(seen).toEqual(["evt_9 event:evt_9"]);
    const service = await receiver.receive({ rawBody: paid.rawBody, headers: { "service-signature": "t=1,v1=00" } });
    expect(bodyOf(service).error?.code).toBe("missing_header");
  });

  it("types GitHub events by X-GitHub-Event and action, and dedups by the signature", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: github(), secret: GITHUB_SECRET, logger: quietLogger })
      .on("issues.opened", (_event, context) => {
        seen.push(context.type);
      })
      .on("ping", (_event, context) => {
        seen.push(context.deliveryKey);
      });
    const headers = { "x-github-event": "issues", "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958" };
    const opened = delivery(github(), GITHUB_SECRET, { action: "opened", issue: { number: 1 } }, headers);
    expect((await receiver.receive(opened)).status).toBe(200);
    expect(bodyOf(await receiver.receive(opened)).duplicate).toBe(true);
    const ping = delivery(
      github(),
      GITHUB_SECRET,
      { zen: "Design for failure." },
      {
        "x-github-event": "ping",
        "x-github-delivery": "d-2",
      },
    );
    expect((await receiver.receive(ping)).status).toBe(200);
    const hex = (ping.headers["x-hub-signature-256"] as string).slice("sha256=".length);
    expect(seen).toEqual(["issues.opened", `event:github:${hex}`]);
  });

  it("types Shopify events by X-Shopify-Topic and dedups by the topic and the signature", async () => {
    const seen: DeliveryContext[] = [];
    const receiver = createReceiver({ scheme: shopify(), secret: "shpss_x", logger: quietLogger }).on(
      "orders/create",
      (_event, context) => {
        seen.push(context);
      },
    );
    const extra = {
      "x-shopify-topic": "orders/create",
      "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    };
    const order = delivery(shopify(), "shpss_x", { id: 820982911946154500, email: "jon@example.com" }, extra);
    expect((await receiver.receive(order)).status).toBe(200);
    expect(bodyOf(await receiver.receive(order)).duplicate).toBe(true);
    const key = `event:shopify:orders/create:${order.headers["x-shopify-hmac-sha256"]}`;
    expect(seen.map((context) => context.deliveryKey)).toEqual([key]);
  });

  it("handles a Shopify delivery with no X-Shopify-Webhook-Id once, however its base64 signature is respelled", async () => {
    let runs = 0;
    const receiver = createReceiver({ scheme: shopify(), secret: "shpss_x", logger: quietLogger }).onAny(() => {
      runs++;
    });
    const order = delivery(shopify(), "shpss_x", { id: 1 }, { "x-shopify-topic": "orders/create" });
    const signature = order.headers["x-shopify-hmac-sha256"] as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    // The last character's two unused bits set: a decoder reads the same 32 bytes.
    const respelled = `${signature.slice(0, 42)}${alphabet[alphabet.indexOf(signature[42] as string) + 1]}=`;
    expect((await receiver.receive(order)).status).toBe(200);
    const replay = await receiver.receive({
      ...order,
      headers: { ...order.headers, "x-shopify-hmac-sha256": respelled },
    });
    expect([replay.status, bodyOf(replay).error?.code]).toEqual([400, "no_supported_signature"]);
    expect(runs).toBe(1);
  });

  it("answers Slack's url_verification with its challenge, and runs no handler for it", async () => {
    let runs = 0;
    const receiver = createReceiver({ scheme: slack(), secret: "slack-signing-secret", logger: quietLogger }).onAny(
      () => {
        runs++;
      },
    );
    const challenge = delivery(slack(), "slack-signing-secret", {
      token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    });
    const answer = await receiver.receive(challenge);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      200,
      { challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" },
    ]);
    const forged = { ...challenge, headers: { ...challenge.headers, "x-slack-signature": `v0=${"0".repeat(64)}` } };
    expect(bodyOf(await receiver.receive(forged)).error?.code).toBe("signature_mismatch");
    const mention = delivery(slack(), "slack-signing-secret", {
      type: "event_callback",
      event_id: "Ev08MFMKH6",
      event: { type: "app_mention", text: "<@U0LAN0Z89> hi" },
    });
    expect((await receiver.receive(mention)).status).toBe(200);
    expect(runs).toBe(1);
  });

  it("verifies Standard Webhooks' ed25519 (v1a) signatures with a whpk_ public key", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
    const whsk = `whsk_${seed.toString("base64")}`;
    const whpk = `whpk_${raw.toString("base64")}`;
    const receiver = createReceiver({ scheme: standardWebhooks(), secret: ["whsec_dGVzdA==", whpk] });
    const seen: DeliveryContext[] = [];
    receiver.onAny((_event, context) => {
      seen.push(context);
    });
    const signedEd = delivery(standardWebhooks(), whsk, { type: "user.created", data: {} });
    expect((await receiver.receive(signedEd)).status).toBe(200);
    expect(seen[0]?.secretIndex).toBe(1);
    expect(seen[0]?.deliveryKey).toBe(`event:${signedEd.headers["webhook-id"]}`);
    const other = generateKeyPairSync("ed25519").privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
    const forged = delivery(standardWebhooks(), `whsk_${other.toString("base64")}`, { type: "user.created" });
    expect(bodyOf(await receiver.receive(forged)).error?.code).toBe("signature_mismatch");
  });
});

describe("one route, several senders (a resolver that names the scheme)", () => {
  const senders: Record<string, { scheme: Scheme; secret: string }> = {
    stripe: { scheme: stripe(), secret: STRIPE_SECRET },
    github: { scheme: github(), secret: GITHUB_SECRET },
  };

  function receiverFor(asked: SecretRequest[]) {
    const seen: string[] = [];
    const receiver = createReceiver({
      scheme: [stripe(), github()],
      secret: (request) => {
        asked.push(request);
        const sender = senders[request.params.provider ?? ""];
        return sender && { ...sender, endpoint: request.params.provider };
      },
      logger: quietLogger,
    }).onAny((_event, context) => {
      seen.push(`${context.endpoint} ${context.type}`);
    });
    return { receiver, seen };
  }

  const at = (provider: string) => ({
    path: `/webhooks/${provider}`,
    route: "/webhooks/:provider",
    params: { provider },
  });

  it("verifies each sender by its own scheme and secret", async () => {
    const { receiver, seen } = receiverFor([]);
    const paid = delivery(stripe(), STRIPE_SECRET, { id: "evt_1", type: "invoice.paid" });
    const push = delivery(
      github(),
      GITHUB_SECRET,
      { ref: "refs/heads/main" },
      {
        "x-github-event": "push",
        "x-github-delivery": "d-1",
      },
    );
    expect((await receiver.receive({ ...paid, target: at("stripe") })).status).toBe(200);
    expect((await receiver.receive({ ...push, target: at("github") })).status).toBe(200);
    expect(seen).toEqual(["stripe invoice.paid", "github push"]);
  });

  it("reads a request by the scheme the resolver names, not by the headers it carries", async () => {
    const { receiver, seen } = receiverFor([]);
    const push = delivery(github(), GITHUB_SECRET, { ref: "x" }, { "x-github-event": "push" });
    const answer = await receiver.receive({ ...push, target: at("stripe") });
    expect([answer.status, bodyOf(answer).error?.code]).toEqual([400, "missing_header"]);
    expect(seen).toEqual([]);
  });

  it("asks the resolver only for a request carrying one of the listed schemes' signature headers", async () => {
    const asked: SecretRequest[] = [];
    const { receiver } = receiverFor(asked);
    const unsigned = await receiver.receive({ rawBody: encoder.encode("{}"), headers: {}, target: at("stripe") });
    const malformed = await receiver.receive({
      rawBody: encoder.encode("{}"),
      headers: { "x-hub-signature-256": "md5=1" },
      target: at("github"),
    });
    expect([bodyOf(unsigned).error?.code, bodyOf(malformed).error?.code]).toEqual([
      "missing_header",
      "no_supported_signature",
    ]);
    expect(asked).toEqual([]);
  });

  it("names every listed scheme's signature header when a request carries none of them", async () => {
    const receiver = createReceiver({
      scheme: [stripe(), github(), svix()],
      secret: [STRIPE_SECRET, GITHUB_SECRET],
      logger: quietLogger,
    });
    const unsigned = await receiver.receive({ rawBody: encoder.encode("{}"), headers: { "x-github-event": "push" } });
    expect([unsigned.status, bodyOf(unsigned).error]).toEqual([
      400,
      {
        code: "missing_header",
        message:
          "No signature header: looked for Stripe-Signature (stripe), X-Hub-Signature-256 (github), svix-signature (or webhook-signature) (svix).",
      },
    ]);
    // A scheme whose signature header is there names what else it lacks.
    const noId = await receiver.receive({
      rawBody: encoder.encode("{}"),
      headers: { "webhook-signature": `v1,${"A".repeat(43)}=`, "webhook-timestamp": "1" },
    });
    expect(bodyOf(noId).error).toEqual({ code: "missing_header", message: "No svix-id (or webhook-id) header." });
    const one = createReceiver({ scheme: github(), secret: GITHUB_SECRET, logger: quietLogger });
    const alone = await one.receive({ rawBody: encoder.encode("{}"), headers: {} });
    expect(bodyOf(alone).error).toEqual({ code: "missing_header", message: "No X-Hub-Signature-256 header." });
  });
});
