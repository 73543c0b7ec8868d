import type { DeliveryEvent } from "../event";
import { numberSource } from "../ground/number-source";

export const nonEmptyString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** The payload's string `type` field: the service's, Stripe's and Standard Webhooks' event type. */
export const payloadType = (event: DeliveryEvent) => nonEmptyString(event.type);

// An id the sender wrote as a JSON number is still the event's id: without it a resend would dedup by signature. A
// number a double holds exactly (a safe integer) is its digits; any other (a 64-bit snowflake id, which JSON.parse
// rounded, so that two ids would share one key) is its exact text in the body.
/** The payload's `id` field: a non-empty string, or a number (one past 2^53 by its exact digits in the body). */
export const payloadId = (event: DeliveryEvent, body: Uint8Array) => {
  const value = event.id;
  return typeof value !== "number"
    ? nonEmptyString(value)
    : Number.isSafeInteger(value)
      ? String(value)
      : numberSource(body, "id");
};
