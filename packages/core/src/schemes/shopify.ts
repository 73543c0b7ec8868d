import type { EventMap } from "../receiver/events";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, optionalHeader, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-shopify-hmac-sha256";
const DISPLAY = "X-Shopify-Hmac-Sha256";

/**
 * Shopify (shopify.dev, "Verify webhooks"): `X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>`, keyed by the
 * app's client secret (UTF-8). Shopify signs no timestamp: only dedup by `X-Shopify-Webhook-Id` stops a replay, for as
 * long as the store remembers it (`doneTtlMs`). The type is `X-Shopify-Topic` (`orders/create`).
 */
export const SHOPIFY: Scheme = /* @__PURE__ */ defineScheme({
  name: "shopify",
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!isBase64Sha256(value)) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const content = { prefix: "", payload, signatures: [value], encoding: "base64" as const, label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (_event, headers) => optionalHeader(headers, "x-shopify-topic"),
  idOf: (_event, _body, headers) => optionalHeader(headers, "x-shopify-webhook-id"),
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
