/**
 * Name of the header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256>`. Header names are case-insensitive.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, sign } from "@tidings/core";
 *
 * // Send yourself a signed test delivery.
 * const body = JSON.stringify({ type: "message.sent", data: { id: "msg_1", status: "sent", channel: "sms" } });
 * await fetch("http://127.0.0.1:3000/webhooks", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", [SIGNATURE_HEADER]: sign(body, process.env.WEBHOOK_SECRET!) },
 *   body,
 * });
 * ```
 */
export const SIGNATURE_HEADER = "service-signature";

/** Deliveries older or newer than this many seconds are rejected (docs/sender-contract.md, Tolerance). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Hostile headers are rejected before any per-pair work is done. */
export const MAX_SIGNATURE_HEADER_LENGTH = 8192;
export const MAX_SIGNATURE_HEADER_PAIRS = 32;
