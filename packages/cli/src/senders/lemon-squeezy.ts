import { iso, json, numberOf, type SenderSample } from "./sample";

/** An `order_created` event as Lemon Squeezy sends it (trimmed); it has no event id, so the order's is made of `id`. */
export const lemonSqueezy: SenderSample = (id, now) =>
  json(
    {
      meta: { event_name: "order_created", custom_data: { customer_id: 25 } },
      data: {
        type: "orders",
        id: String(numberOf(id)),
        attributes: {
          store_id: 1,
          customer_id: 1,
          identifier: "104e18a2-d755-4d4b-80c4-a6c1dcbe1c10",
          user_email: "ada@example.com",
          currency: "USD",
          total: 1199,
          status: "paid",
          created_at: iso(now),
        },
      },
    },
    { "x-event-name": "order_created" },
  );
