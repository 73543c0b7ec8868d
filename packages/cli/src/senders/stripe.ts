import { json, type SenderSample } from "./sample";

/** An `invoice.paid` event as Stripe sends it (trimmed to the fields handlers read first). */
export const stripe: SenderSample = (id, now) =>
  json({
    id,
    object: "event",
    api_version: "2025-10-29.clover",
    created: now,
    type: "invoice.paid",
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: "in_1MtHbELkdIwHu7ixl4OzzPMv",
        object: "invoice",
        amount_paid: 2000,
        currency: "usd",
        customer: "cus_NeZwdNtLEOXuvB",
        status: "paid",
      },
    },
  });
