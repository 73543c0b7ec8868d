import { createHmac, generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type SecretResolver } from "@tidings/core";
import { github, type Scheme, serviceSignature, shopify, slack, standardWebhooks, stripe } from "@tidings/core/schemes";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";

// The endpoint's ed25519 public key: public by definition, so anyone can HMAC with its text.
const { publicKey } = generateKeyPairSync("ed25519");
const WHPK = `whpk_${publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64")}`;
const STRIPE_SECRET = "whsec_stripe_endpoint";

const hex = (key: string, text: string) => createHmac("sha256", key).update(text).digest("hex");
const base64 = (key: string, text: string) => createHmac("sha256", key).update(text).digest("base64");
const now = () => Math.floor(Date.now() / 1000);

/** Headers each HMAC scheme's sender would send, but HMAC'd with `key` (the public key's text), as a forger would. */
const FORGERIES: Record<string, (body: string, key: string) => Record<string, string>> = {
  "service-signature": (body, key) => ({ "service-signature": `t=${now()},v1=${hex(key, `${now()}.${body}`)}` }),
  stripe: (body, key) => ({ "stripe-signature": `t=${now()},v1=${hex(key, `${now()}.${body}`)}` }),
  github: (body, key) => ({
    "x-hub-signature-256": `sha256=${hex(key, body)}`,
    "x-github-event": "issues",
    "x-github-delivery": `forged-${Math.random()}`,
  }),
  shopify: (body, key) => ({ "x-shopify-hmac-sha256": base64(key, body), "x-shopify-topic": "orders/create" }),
  slack: (body, key) => ({
    "x-slack-request-timestamp": String(now()),
    "x-slack-signature": `v0=${hex(key, `v0:${now()}:${body}`)}`,
  }),
  // Standard Webhooks' own HMAC (v1) under the public key read as whsec_ base64.
  "standard-webhooks v1": (body, key) => {
    const id = `msg_${Math.random()}`;
    const raw = Buffer.from(key.slice(5), "base64");
    const v1 = createHmac("sha256", raw).update(`${id}.${now()}.${body}`).digest("base64");
    return { "webhook-id": id, "webhook-timestamp": String(now()), "webhook-signature": `v1,${v1}` };
  },
};

const ROUTE: Scheme[] = [standardWebhooks(), serviceSignature(), stripe(), github(), shopify(), slack()];

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((done) => server?.close(done));
  server = undefined;
});

async function appWith(secret: string | string[] | SecretResolver) {
  const ran: string[] = [];
  const receiver = createReceiver({ scheme: ROUTE, secret, logger: { error() {}, warn() {} } }).onAny((_event, ctx) => {
    ran.push(ctx.type);
  });
  server = createServer(express().post("/webhooks/:sender", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/acme`;
  const post = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
  };
  return { post, ran };
}

describe("an ed25519 public key on a route that several schemes share", () => {
  const body = JSON.stringify({ id: "evt_forged", type: "invoice.paid", action: "opened", data: {} });

  it("signs for no HMAC scheme with a fixed secret list", async () => {
    const { post, ran } = await appWith([WHPK, STRIPE_SECRET]);
    for (const [name, forge] of Object.entries(FORGERIES)) {
      const answer = await post(body, forge(body, WHPK));
      expect([name, answer.status, answer.body.error?.code]).toEqual([name, 400, "signature_mismatch"]);
    }
    expect(ran).toEqual([]);
  });

  it("signs for no HMAC scheme when a resolver returns it without a scheme", async () => {
    const { post, ran } = await appWith(() => ({ secret: WHPK, endpoint: "acme" }));
    for (const [name, forge] of Object.entries(FORGERIES)) {
      const answer = await post(body, forge(body, WHPK));
      expect([name, answer.status, answer.body.error?.code]).toEqual([name, 400, "signature_mismatch"]);
    }
    expect(ran).toEqual([]);
  });

  it("still verifies the route's genuine deliveries, each with the secret its scheme accepts", async () => {
    const { post, ran } = await appWith([WHPK, STRIPE_SECRET]);
    expect((await post(body, stripe().sign(body, STRIPE_SECRET))).status).toBe(200);
    expect(ran).toEqual(["invoice.paid"]);
  });

  it("property: for any public key and body, an HMAC made with the key's text is refused by every scheme", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (text, raw) => {
          const key = `whpk_${Buffer.from(raw).toString("base64")}`;
          const payload = JSON.stringify({ id: "evt", type: "x", text });
          const receiver = createReceiver({ scheme: ROUTE, secret: [key], logger: { error() {}, warn() {} } });
          for (const forge of Object.values(FORGERIES)) {
            const answer = await receiver.receive({ rawBody: Buffer.from(payload), headers: forge(payload, key) });
            expect(answer.code).toBe("signature_mismatch");
          }
          // On their own, the senders' schemes say the key is no secret of theirs.
          for (const scheme of ROUTE.filter((one) => one.name !== "service-signature")) {
            const headers = FORGERIES[scheme.name === "standard-webhooks" ? "standard-webhooks v1" : scheme.name];
            const forged = headers?.(payload, key) ?? {};
            expect(() => scheme.verify(payload, forged, key)).toThrow();
            await expect(scheme.verifyAsync(payload, forged, key)).rejects.toThrow();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
