import { createReceiver, type DeliveryContext } from "@tidings/core";
import { expect, it } from "vitest";
import { SENDERS, type Sender, schemeOf } from "./senders";
import type { AnyReceiver, RunningApp, WireResponse } from "./target";

/** What each sender sends besides the signature: the id and type headers its scheme reads. */
function senderHeaders(sender: Sender, n: string): Record<string, string> {
  if (sender.scheme === "github") return { "x-github-event": "issues", "x-github-delivery": `delivery-${n}` };
  if (sender.scheme === "shopify") return { "x-shopify-topic": "orders/create", "x-shopify-webhook-id": `wh-${n}` };
  return {};
}

function payload(sender: Sender, n: string): string {
  if (sender.scheme === "github") return JSON.stringify({ action: "opened", issue: { number: Number(n) } });
  if (sender.scheme === "shopify") return JSON.stringify({ id: Number(n), email: "jon@example.com" });
  if (sender.scheme === "slack") {
    return JSON.stringify({ type: "event_callback", event_id: `Ev${n}`, event: { type: "app_mention" } });
  }
  return JSON.stringify({ id: `evt_${n}`, type: "invoice.paid", data: { object: { n } } });
}

const TYPES: Record<Sender["scheme"], string> = {
  "standard-webhooks": "invoice.paid",
  svix: "invoice.paid",
  stripe: "invoice.paid",
  github: "issues.opened",
  shopify: "orders/create",
  slack: "app_mention",
};

const KEYS: Record<Sender["scheme"], (n: string, headers: Record<string, string>) => string> = {
  "standard-webhooks": (_n, headers) => `event:${headers["webhook-id"]}`,
  svix: (_n, headers) => `event:${headers["svix-id"]}`,
  stripe: (n) => `event:evt_${n}`,
  // GitHub and Shopify sign no id: their deliveries are keyed by the signature (and Shopify's topic).
  github: (_n, headers) => `event:github:${headers["x-hub-signature-256"]?.slice("sha256=".length)}`,
  shopify: (_n, headers) => `event:shopify:orders/create:${headers["x-shopify-hmac-sha256"]}`,
  slack: (n) => `event:Ev${n}`,
};

function errorCode(response: WireResponse): string | undefined {
  return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
}

/**
 * Every sender's scheme through one adapter: deliveries signed by the sender's own library are handled once (a replay
 * is a duplicate), with the scheme's type and dedup key; tampered, unsigned and stale ones get the same codes as the
 * service's.
 */
export function describeSchemes(start: (receiver: AnyReceiver) => Promise<RunningApp>): void {
  for (const sender of SENDERS) {
    it(`handles ${sender.scheme} deliveries signed by the sender's own library, once each`, async () => {
      const seen: DeliveryContext[] = [];
      const receiver = createReceiver({
        scheme: schemeOf(sender.scheme),
        secret: sender.secret,
        logger: { error() {} },
      });
      receiver.onAny((_event, context) => {
        seen.push(context);
      });
      const app = await start(receiver);
      const n = String(Math.floor(Math.random() * 1e9));
      const body = payload(sender, n);
      const headers = {
        "content-type": "application/json",
        ...senderHeaders(sender, n),
        ...(await sender.sign(body, sender.secret, Math.floor(Date.now() / 1000))),
      };
      const bytes = new TextEncoder().encode(body);
      const first = await app.send({ method: "POST", headers, body: bytes });
      const replay = await app.send({ method: "POST", headers, body: bytes });
      expect([first.status, replay.status, JSON.parse(replay.body)]).toEqual([
        200,
        200,
        { received: true, duplicate: true },
      ]);
      expect(seen.map((context) => [context.type, context.deliveryKey])).toEqual([
        [TYPES[sender.scheme], KEYS[sender.scheme](n, headers)],
      ]);
      const tampered = await app.send({ method: "POST", headers, body: new TextEncoder().encode(`${body} `) });
      const unsigned = await app.send({ method: "POST", headers: { "content-type": "application/json" }, body: bytes });
      expect([tampered.status, errorCode(tampered), unsigned.status, errorCode(unsigned)]).toEqual([
        400,
        "signature_mismatch",
        400,
        "missing_header",
      ]);
      if (sender.timed) {
        const staleHeaders = {
          ...headers,
          ...(await sender.sign(body, sender.secret, Math.floor(Date.now() / 1000) - 3600)),
        };
        const stale = await app.send({ method: "POST", headers: staleHeaders, body: bytes });
        expect([stale.status, errorCode(stale)]).toEqual([400, "timestamp_too_old"]);
      }
      expect(seen).toHaveLength(1);
    });
  }
}
