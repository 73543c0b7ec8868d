import { createHmac } from "node:crypto";
import { alphanumeric, iso, JSON_TYPE, numberOf, type SenderSample } from "./sample";

/**
 * An `AUTHORISATION` notification as Adyen sends it, signed inside the body as Adyen documents it: the item's
 * `additionalData.hmacSignature` is the base64 HMAC-SHA256, keyed by the hex HMAC key, of `pspReference`,
 * `originalReference`, `merchantAccountCode`, `merchantReference`, `value`, `currency`, `eventCode` and `success`
 * joined by `:`. Its `pspReference`, from which the scheme's dedup key is made, is made of `id`.
 */
export const adyen: SenderSample = (id, now) => {
  const item = {
    amount: { currency: "EUR", value: 1000 },
    eventCode: "AUTHORISATION",
    eventDate: iso(now),
    merchantAccountCode: "YOUR_MERCHANT_ACCOUNT",
    merchantReference: `order-${numberOf(id, 6)}`,
    paymentMethod: "visa",
    pspReference: alphanumeric(id).slice(-16).toUpperCase(),
    reason: "033899:1111:03/2030",
    success: "true",
  };
  const notification = (additionalData: Record<string, string>) =>
    JSON.stringify({ live: "false", notificationItems: [{ NotificationRequestItem: { additionalData, ...item } }] });
  return {
    body: notification({}),
    contentType: JSON_TYPE,
    headers: {},
    signBody(secret, _timestamp, change = (valid) => valid) {
      const signed = [
        item.pspReference,
        "",
        item.merchantAccountCode,
        item.merchantReference,
        item.amount.value,
        item.amount.currency,
        item.eventCode,
        item.success,
      ].join(":");
      const hmacSignature = change(createHmac("sha256", Buffer.from(secret, "hex")).update(signed).digest("base64"));
      return notification(hmacSignature === undefined ? {} : { hmacSignature });
    },
  };
};
