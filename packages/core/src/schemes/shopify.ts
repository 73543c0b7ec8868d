import type { EventMap } from "../event-map";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, requiredHeader, typeHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-shopify-hmac-sha256";
const DISPLAY = "X-Shopify-Hmac-Sha256";
const TOPIC = "x-shopify-topic";
const TOPIC_DISPLAY = "X-Shopify-Topic";

/**
 * Shopify (shopify.dev, "Verify webhooks"): `X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>`, keyed by the
 * app's client secret (UTF-8). Nothing else is signed: not `X-Shopify-Webhook-Id`, not `X-Shopify-Topic`, and no
 * timestamp. The type is `X-Shopify-Topic` (`orders/create`).
 *
 * The dedup id is `shopify:<topic>:<the base64 signature>`. The signature (the HMAC of the body, canonical base64) is
 * what an attacker cannot vary, and what Shopify's retries repeat; `X-Shopify-Webhook-Id` is not read, so a captured
 * delivery sent again with a new one is a duplicate, and no value in it can match another sender's event id. The
 * topic is part of the id because Shopify sends one body under several topics (an order as `orders/create`,
 * `orders/updated` and `orders/paid` at once): keyed by the body alone, all but the first would be lost. So a captured
 * delivery sent again with another topic runs that topic's handlers (and `onAny`), once per topic, at any time:
 * check in such handlers that the payload agrees with the topic (`financial_status` for `orders/paid`). Nothing
 * bounds a replay in time but the store: once `doneTtlMs` has passed since it was handled, the same capture runs
 * again.
 */
export const SHOPIFY: Scheme = /* @__PURE__ */ defineScheme({
  name: "shopify",
  about: {
    sender: "Shopify",
    docs: "https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook",
    headers: [HEADER, TOPIC],
    signs: "HMAC-SHA256 of the body, base64",
    secret: "the app's client secret, its UTF-8 bytes as the HMAC key",
    replay: "none: no time is signed",
    dedup: {
      key: "`shopify:<topic>:<the base64 signature>` (`X-Shopify-Webhook-Id` is not signed, and not read)",
      signed: true,
    },
    testedAgainst: "`@shopify/shopify-api` 15: both directions (`webhooks.validate`, and its test helper `getHmac`)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!isBase64Sha256(value)) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const content = { prefix: "", payload, signatures: [value], encoding: "base64" as const, label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (_event, headers) => typeHeader(headers, TOPIC, TOPIC_DISPLAY),
  // The signature last: base64 has no `:` and a fixed length, so no two topic and signature pairs make one id.
  idOf: (_event, _body, headers) =>
    `shopify:${typeHeader(headers, TOPIC, TOPIC_DISPLAY)}:${requiredHeader(headers, HEADER, DISPLAY)}`,
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("base64") };
  },
});

/**
 * Shopify's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { shopify } from "@tidings/core/schemes";
 *
 * // Typed by topic (X-Shopify-Topic); the fields your handlers read.
 * type Events = { "orders/create": { id: number; name: string; total_price: string } };
 *
 * export const receiver = createReceiver({
 *   scheme: shopify<Events>(),
 *   secret: process.env.SHOPIFY_CLIENT_SECRET!,
 * }).on("orders/create", (order) => console.log(order.name, order.total_price));
 * ```
 */
export function shopify<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SHOPIFY as Scheme<Events>;
}
