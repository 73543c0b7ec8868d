/**
 * The request a delivery came in, for a scheme that signs more than the body: the method, and the URL the sender
 * called (behind a proxy, as `publicUrl` or the trusted proxy's headers rebuild it).
 *
 * @example
 * ```ts
 * import type { SignedRequest } from "@tidings/core/schemes";
 *
 * // What a standalone `verify` of a URL-signed scheme is told, in `options.request`.
 * export const request: SignedRequest = { method: "POST", url: "https://example.com/twilio/sms?account=1" };
 * ```
 */
export interface SignedRequest {
  method: string;
  /** Absolute: scheme, host (and port when not the default), path and query, as the sender called it. */
  url: string;
}
