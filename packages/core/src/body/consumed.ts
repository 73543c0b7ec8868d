import { WebhookVerificationError } from "../errors";

/**
 * A body another layer consumed or parsed: a mounting mistake that `fix` tells the integrator how to correct.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { bodyAlreadyConsumed } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const FIX = "Register the webhook route before the JSON body parser.";
 *
 * // A framework whose parser left an object where the bytes should be: 500 body_already_parsed, with the fix.
 * export function handle(request: { method: string; headers: Record<string, string>; body: unknown }) {
 *   return receiver.handle({
 *     method: request.method,
 *     headers: request.headers,
 *     readBody: () => {
 *       if (request.body instanceof Uint8Array) return request.body;
 *       throw bodyAlreadyConsumed(FIX);
 *     },
 *   });
 * }
 * ```
 */
export function bodyAlreadyConsumed(fix: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_already_parsed",
    `Another middleware read the request body first, so the signed bytes are gone. ${fix}`,
  );
}
