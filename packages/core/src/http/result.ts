import type { WebhookErrorCode, WebhookVerificationError } from "../errors";

/** Outcomes of the Receiver that are not about the delivery's bytes. */
export type ReceiverErrorCode =
  | "method_not_allowed"
  | "delivery_in_progress"
  | "handler_failed"
  | "store_unavailable"
  | "internal_error";

export type ReceiveErrorCode = WebhookErrorCode | ReceiverErrorCode;

/** What an adapter writes back: plain data, no framework types. `body` is JSON text. */
export interface ReceiveResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const;

export function acceptedResult(duplicate: boolean): ReceiveResult {
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(duplicate ? { received: true, duplicate: true } : { received: true }),
  };
}

export function errorResult(
  status: number,
  code: ReceiveErrorCode,
  message: string,
  extra?: { headers?: Record<string, string>; issues?: readonly unknown[] },
): ReceiveResult {
  const error = extra?.issues ? { code, message, issues: extra.issues } : { code, message };
  return { status, headers: { ...JSON_HEADERS, ...extra?.headers }, body: JSON.stringify({ error }) };
}

export function verificationErrorResult(error: WebhookVerificationError, issues?: readonly unknown[]): ReceiveResult {
  return errorResult(error.status, error.code, error.message, issues ? { issues } : undefined);
}
