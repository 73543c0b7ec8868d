import { iso, json, type SenderSample } from "./sample";

/** An `order.paid` event as Polar sends it (trimmed); the `webhook-id` its `sign` writes is `id`. */
export const polar: SenderSample = (_id, now) =>
  json({
    type: "order.paid",
    timestamp: iso(now),
    data: {
      id: "b6a6a6b2-7e1f-4b2a-9f3e-2c1d0e9f8a7b",
      created_at: iso(now),
      status: "paid",
      paid: true,
      total_amount: 1200,
      currency: "usd",
      billing_reason: "purchase",
      customer_id: "6f1c2b3a-4d5e-4f6a-8b9c-0d1e2f3a4b5c",
      product_id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    },
  });
