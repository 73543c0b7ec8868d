import { iso, json, type SenderSample } from "./sample";

/** A `payment.updated` event as Square sends it (trimmed); its `event_id` is `id`, the dedup key. */
export const square: SenderSample = (id, now) =>
  json({
    merchant_id: "6SSW7HV8K2ST5",
    type: "payment.updated",
    event_id: id,
    created_at: iso(now),
    data: {
      type: "payment",
      id: "KkAkhdMsgzn59SM8A89WgKwekxLZY",
      object: {
        payment: {
          id: "KkAkhdMsgzn59SM8A89WgKwekxLZY",
          amount_money: { amount: 100, currency: "USD" },
          status: "COMPLETED",
          source_type: "CARD",
          location_id: "S8GWD5R9QB376",
          order_id: "03O3USaPaAaFnI6kkwB1JxGgBsUZY",
          created_at: iso(now),
          updated_at: iso(now),
          version: 2,
        },
      },
    },
  });
