import type { ErrorCode } from "../errors";
import type { DeliveryContext } from "./handlers";

/**
 * Passed to `onError` handlers with every failure: what the sender was answered, and about which event.
 *
 * @example
 * ```ts
 * import { createReceiver, type ReceiveErrorInfo } from "@tidings/core";
 *
 * function report(error: unknown, info: ReceiveErrorInfo) {
 *   console.error(`webhook answered ${info.status} ${info.code}`, info.context?.deliveryKey, info.details, error);
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onError(report);
 * ```
 */
export interface ReceiveErrorInfo {
  code: ErrorCode;
  status: number;
  /** Facts for the app's logs, kept out of the answer the sender sees (for `signature_mismatch`: how many secrets). */
  details?: Readonly<Record<string, unknown>>;
  event?: unknown;
  context?: DeliveryContext;
}
