import type { WebhookErrorCode } from "../errors";

/** Outcomes of the Receiver that are not about the delivery's bytes. */
export type ReceiverErrorCode =
  | "method_not_allowed"
  | "delivery_in_progress"
  | "handler_failed"
  | "handler_timeout"
  | "store_unavailable"
  | "store_full"
  | "internal_error";

export type ReceiveErrorCode = WebhookErrorCode | ReceiverErrorCode;

/** What an adapter writes back: plain data, no framework types. `body` is JSON text. */
export interface ReceiveResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS: Record<string, string> = { "content-type": "application/json; charset=utf-8" };

// Built once and shared by every accepted delivery; adapters only read them.
export const ACCEPTED: ReceiveResult = { status: 200, headers: JSON_HEADERS, body: '{"received":true}' };
export const DUPLICATE: ReceiveResult = { ...ACCEPTED, body: '{"received":true,"duplicate":true}' };

export function errorResult(
  status: number,
  code: ReceiveErrorCode,
  message: string,
  extra?: { headers?: Record<string, string>; issues?: readonly unknown[] | undefined },
): ReceiveResult {
  const error = extra?.issues ? { code, message, issues: extra.issues } : { code, message };
  return { status, headers: { ...JSON_HEADERS, ...extra?.headers }, body: JSON.stringify({ error }) };
}
