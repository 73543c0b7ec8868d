import { json, numberOf, type SenderSample } from "./sample";

/**
 * An `orders/create` webhook as Shopify sends it (trimmed to the fields handlers read first). The scheme dedups by the
 * topic and the signature: the order's `id` is made of `id`, so that each sample is a new order.
 */
export const shopify: SenderSample = (id) =>
  json(
    {
      id: numberOf(id),
      email: "jon@example.com",
      created_at: "2026-11-28T10:00:00-05:00",
      currency: "USD",
      total_price: "403.00",
      line_items: [{ id: 866550311766439000, title: "IPod Nano - 8GB", quantity: 1, price: "199.00" }],
    },
    {
      "x-shopify-topic": "orders/create",
      "x-shopify-webhook-id": id,
      "x-shopify-shop-domain": "example.myshopify.com",
      "x-shopify-api-version": "2025-10",
    },
  );
