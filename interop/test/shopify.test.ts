import "@shopify/shopify-api/adapters/web-api";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { shopify } from "@tidings/core/schemes";
import { describeSender } from "./harness";

// The headers Shopify sends beside the HMAC, none of them signed; the SDK's `validate` requires them.
const UNSIGNED = {
  "x-shopify-topic": "orders/create",
  "x-shopify-shop-domain": "interop.myshopify.com",
  "x-shopify-api-version": ApiVersion.January26,
  "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
};

async function validates(body: string, headers: Record<string, string>, secret: string) {
  const sdk = shopifyApi({
    apiKey: "interop-api-key",
    apiSecretKey: secret,
    hostName: "interop.example.com",
    apiVersion: ApiVersion.January26,
    isEmbeddedApp: false,
    logger: { level: 0 },
  });
  const rawRequest = new Request("https://interop.example.com/webhooks", {
    method: "POST",
    headers: { ...UNSIGNED, ...headers },
    body,
  });
  return (await sdk.webhooks.validate({ rawBody: body, rawRequest })).valid;
}

describeSender("Shopify", {
  scheme: shopify(),
  secret: "shpss_client_secret",
  otherSecret: "shpss_rotated_client_secret",
  body: JSON.stringify({ id: 820982911946154500, name: "#9999", total_price: "403.00", note: "héllo ✓" }),
  type: "orders/create",
  timed: false,
  sign: (body, secret) => ({ ...UNSIGNED, "x-shopify-hmac-sha256": getHmac(body, secret) }),
  accepts: validates,
});
