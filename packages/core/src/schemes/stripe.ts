import type { SecretFormat } from "../crypto/signed-content";
import { WebhookVerificationError } from "../errors";
import type { EventMap } from "../event-map";
import { parseHeaderDetailed } from "../verification/signature-header";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { payloadId, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "stripe-signature";
const encoder = /* @__PURE__ */ new TextEncoder();

/** The whole `whsec_…` string's UTF-8 bytes (not base64-decoded); anything else (an API key) verifies no Stripe signature. */
const STRIPE_SECRET: SecretFormat = {
  keyBytes: (secret) => (secret.startsWith("whsec_") ? encoder.encode(secret) : undefined),
  nodeKeys: new Map(),
  webKeys: new Map(),
};

/**
 * Stripe (docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t." + body>`,
 * several `v1` allowed and `v0` ignored; the key is the whole `whsec_…` string's UTF-8 bytes (not base64-decoded), and
 * a secret not written `whsec_…` (an API key, `sk_test_…`) is refused;
 * tolerance 300 s; dedup by the event's `id`, type from its `type`. The header reads by the service's rules, which are
 * Stripe's: they share the format.
 */
export const STRIPE: Scheme = /* @__PURE__ */ defineScheme({
  name: "stripe",
  about: {
    sender: "Stripe",
    docs: "https://docs.stripe.com/webhooks#verify-manually",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<t>.<body>`, hex, as `t=<unix>,v1=<hex>` (several `v1` allowed, `v0` ignored)",
    secret: "`whsec_…`, the whole string's UTF-8 bytes as the HMAC key (not decoded); an API key is refused",
    replay: "5 minutes, from `t`",
    dedup: { key: "the event's `id` (signed)", signed: true },
    testedAgainst: "`stripe` 23: both directions (`generateTestHeaderString`, `constructEvent`)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, "Stripe-Signature");
    let parsed: ReturnType<typeof parseHeaderDetailed>;
    try {
      parsed = parseHeaderDetailed(value);
    } catch (error) {
      const { code, message } = error as WebhookVerificationError;
      throw new WebhookVerificationError(code, message.replace("Service-Signature", "Stripe-Signature"));
    }
    const content = {
      prefix: `${parsed.timestampText}.`,
      payload,
      signatures: parsed.signatures,
      format: STRIPE_SECRET,
    };
    return { content, secrets, timestamp: parsed.timestamp, toleranceSeconds };
  },
  secretKind(secret) {
    if (!secret.startsWith("whsec_")) {
      throw new TypeError("A Stripe webhook secret is whsec_…: the endpoint's signing secret, not an API key (sk_…)");
    }
    return "hmac";
  },
  typeOf: payloadType,
  idOf: payloadId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return { [HEADER]: `t=${timestamp},v1=${hmac(secret, `${timestamp}.`, bytes).toString("hex")}` };
  },
});

/**
 * Stripe's scheme; type handlers with `Stripe.Event` from the `stripe` package (see the README).
 *
 * @example
 * ```ts
 * import { WebhookVerificationError } from "@tidings/core";
 * import { stripe } from "@tidings/core/schemes";
 * import type Stripe from "stripe";
 *
 * // A Next.js route handler verifying Stripe's webhooks on their own (Web Crypto on the Edge runtime).
 * export async function POST(request: Request): Promise<Response> {
 *   const body = new Uint8Array(await request.arrayBuffer());
 *   try {
 *     await stripe().verifyAsync(body, request.headers, process.env.STRIPE_WEBHOOK_SECRET!);
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     return Response.json({ error: error.code }, { status: error.status });
 *   }
 *   const event = JSON.parse(new TextDecoder().decode(body)) as Stripe.Event;
 *   console.log("stripe", event.type);
 *   return Response.json({ received: true });
 * }
 * ```
 */
export function stripe<Events extends EventMap = EventMap>(): Scheme<Events> {
  return STRIPE as Scheme<Events>;
}
