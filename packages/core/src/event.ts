import { WebhookVerificationError } from "./errors";

/**
 * A verified delivery's JSON payload. The service does not specify its fields; see the README's event model.
 *
 * @example
 * ```ts
 * import { constructEvent, type DeliveryEvent, SIGNATURE_HEADER } from "@tidings/core";
 *
 * export function readDelivery(body: Buffer, headers: Record<string, string | string[] | undefined>): DeliveryEvent {
 *   const event = constructEvent(body, headers[SIGNATURE_HEADER], process.env.WEBHOOK_SECRET!);
 *   // Untyped JSON: check a field before using it.
 *   if (typeof event.type === "string") console.log("verified", event.type);
 *   return event;
 * }
 * ```
 */
export type DeliveryEvent = Readonly<Record<string, unknown>>;

// Non-fatal: a signed body with a stray invalid byte inside a JSON string still parses (as U+FFFD).
const decoder = /* @__PURE__ */ new TextDecoder();

/** Parses verified bytes as a JSON object; anything else is `invalid_payload`. */
export function parseEvent(bytes: Uint8Array): DeliveryEvent {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (cause) {
    throw new WebhookVerificationError(
      "invalid_payload",
      `Signature valid, but the body is not JSON (${(cause as Error).message}).`,
      { cause },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError("invalid_payload", "Signature valid, but the body is not a JSON object.");
  }
  return value as DeliveryEvent;
}
