import { iso, json, type SenderSample } from "./sample";

/** A `transaction.completed` event as Paddle Billing sends it (trimmed); its `event_id` is `id`, the dedup key. */
export const paddle: SenderSample = (id, now) =>
  json({
    event_id: id,
    event_type: "transaction.completed",
    occurred_at: iso(now),
    notification_id: "ntf_01h8441jn5pcwrfhwh78jqt8hk",
    data: {
      id: "txn_01h8441jn5pcwrfhwh78jqt8hk",
      status: "completed",
      customer_id: "ctm_01h8441jn5pcwrfhwh78jqt8hk",
      currency_code: "USD",
      origin: "web",
      items: [{ price: { id: "pri_01gsz8x8sawmvhz1pv30nge1ke" }, quantity: 1 }],
      details: { totals: { subtotal: "1000", tax: "200", total: "1200", currency_code: "USD" } },
      billed_at: iso(now),
      created_at: iso(now),
    },
  });
