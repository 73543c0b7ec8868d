export type WebhookErrorCode =
  | "missing_header"
  | "malformed_header"
  | "no_supported_signature"
  | "signature_mismatch"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "invalid_payload"
  | "payload_too_large"
  | "body_already_parsed"
  | "body_truncated"
  | "unsupported_encoding"
  | "body_timeout"
  | "body_too_slow";

/**
 * Every code a delivery can be answered with: the verification error's codes, then the Receiver's own.
 *
 * @example
 * ```ts
 * import { createReceiver, type ErrorCode } from "@tidings/core";
 *
 * // Refusals the app, not the sender, must fix: page someone.
 * const PAGE: ReadonlySet<ErrorCode> = new Set(["body_already_parsed", "store_unavailable", "handler_timeout"]);
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onError((error, { code }) => {
 *   if (PAGE.has(code)) console.error(`page: webhook ${code}`, error);
 * });
 * ```
 */
export type ErrorCode =
  | WebhookErrorCode
  | "method_not_allowed"
  | "unknown_endpoint"
  | "secret_unavailable"
  | "delivery_in_progress"
  | "object_busy"
  | "handler_failed"
  | "handler_timeout"
  | "store_unavailable"
  | "store_full"
  | "overloaded"
  | "internal_error";

/**
 * What a delivery came to: handled (`accepted`), already handled (`duplicate`), behind its object's handled position
 * (`stale`, with `order`), or the error code it was answered with.
 */
export type OutcomeCode = "accepted" | "duplicate" | "stale" | ErrorCode;

// The statuses of the verification error's codes: all that `verify` alone pulls into a bundle.
const WEBHOOK_ERROR_STATUS: Readonly<Record<WebhookErrorCode, number>> = {
  missing_header: 400,
  malformed_header: 400,
  no_supported_signature: 400,
  signature_mismatch: 400,
  timestamp_too_old: 400,
  timestamp_in_future: 400,
  invalid_payload: 400,
  payload_too_large: 413,
  // The app mounted us behind a body parser: a server misconfiguration, not the sender's fault.
  body_already_parsed: 500,
  body_truncated: 400,
  unsupported_encoding: 415,
  // The client sent the body too slowly (bodyTimeoutMs): a slow-drip request must not hold a connection for ever.
  body_timeout: 408,
  // The body arrived slower than minBodyBytesPerSecond once its grace was over: a slow upload must not hold a slot.
  body_too_slow: 408,
};

/** The verification statuses, then the Receiver's own: a function so that bundles of `verify` alone drop it. */
function outcomeStatuses(verification: Readonly<Record<WebhookErrorCode, number>>) {
  return Object.freeze({
    // Handled (a handshake a scheme answers itself, such as Slack's challenge, included), handled before, or with
    // `order` behind its object's handled position: the sender stops.
    accepted: 200,
    duplicate: 200,
    stale: 200,
    ...verification,
    method_not_allowed: 405,
    // The secret resolver knows no endpoint for this request: nothing was verified against a default secret.
    unknown_endpoint: 404,
    // The secret resolver failed (its database is down): the sender retries later.
    secret_unavailable: 503,
    // Another request holds the claim: the sender retries later, and by then it is done (200 duplicate) or released.
    delivery_in_progress: 409,
    // Another event of the same object is in its handlers (`order`): by the retry it has settled.
    object_busy: 409,
    handler_failed: 500,
    // Answered 5xx so the sender retries; the claim stays held until the handlers settle.
    handler_timeout: 503,
    store_unavailable: 503,
    store_full: 503,
    // More deliveries in flight than `maxConcurrentDeliveries`: refused before the body is read; the sender retries.
    overloaded: 503,
    internal_error: 500,
  }) satisfies Record<OutcomeCode, number>;
}

/**
 * The one table of outcome codes and the HTTP status each is answered with.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER, STATUS_BY_CODE, sign } from "@tidings/core";
 * import { expect, it } from "vitest";
 *
 * // A test of your webhook route: a forged delivery is answered as the code table says.
 * it("refuses a delivery signed with another secret", async () => {
 *   const body = JSON.stringify({ id: "evt_1", type: "message.sent", data: { id: "msg_1" } });
 *   const response = await fetch("http://127.0.0.1:3000/webhooks", {
 *     method: "POST",
 *     headers: { [SIGNATURE_HEADER]: sign(body, "not-the-secret") },
 *     body,
 *   });
 *   expect(response.status).toBe(STATUS_BY_CODE.signature_mismatch); // 400
 * });
 * ```
 */
export const STATUS_BY_CODE: Readonly<Record<OutcomeCode, number>> =
  /* @__PURE__ */ outcomeStatuses(WEBHOOK_ERROR_STATUS);

// A registry symbol, the same in every copy of this module: bundlers load the ESM and the CommonJS build side by side
// (Next.js does, for a package imported from the app and from an adapter), and `instanceof` must hold across them.
const BRAND = Symbol.for("tidings.verification-error");

/**
 * Every way a delivery can be refused. `status` is the HTTP status an adapter answers with.
 *
 * @example
 * ```ts
 * import { verify, WebhookVerificationError } from "@tidings/core";
 *
 * // The answer to a delivery that did not verify; undefined for one that did.
 * export function refusal(body: Uint8Array, header: string | null): Response | undefined {
 *   try {
 *     verify(body, header, process.env.WEBHOOK_SECRET!);
 *     return undefined;
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error; // a TypeError: a bad secret or option
 *     return Response.json({ error: { code: error.code, message: error.message } }, { status: error.status });
 *   }
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (value as { [BRAND]?: unknown } | null)?.[BRAND] === true;
  }

  override readonly name = "WebhookVerificationError";
  readonly code: WebhookErrorCode;
  readonly status: number;
  readonly [BRAND] = true;

  constructor(code: WebhookErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = WEBHOOK_ERROR_STATUS[code];
  }
}
