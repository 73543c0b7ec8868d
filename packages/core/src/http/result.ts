import { type ErrorCode, STATUS_BY_CODE } from "../errors";

/**
 * What a delivery came to: handled (`accepted`), already handled (`duplicate`), behind its object's handled position
 * (`stale`, with `order`), or the error code it was answered with.
 */
export type OutcomeCode = "accepted" | "duplicate" | "stale" | ErrorCode;

/**
 * What an adapter writes back: plain data, no framework types. `body` is JSON text.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { ReceiveResult } from "@tidings/core/adapter";
 * import type { Context } from "koa";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // The Receiver's answer, written through a framework's own response API.
 * function send(ctx: Context, result: ReceiveResult) {
 *   ctx.status = result.status;
 *   ctx.set(result.headers);
 *   ctx.body = result.body;
 * }
 *
 * export async function webhook(ctx: Context, rawBody: Uint8Array) {
 *   send(ctx, await receiver.receive({ rawBody, headers: ctx.headers }));
 * }
 * ```
 */
export interface ReceiveResult {
  /** What the answer says, for logs and metrics; adapters write `status`, `headers` and `body`. */
  code: OutcomeCode;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS: Record<string, string> = { "content-type": "application/json; charset=utf-8" };

// Built once and shared by every accepted delivery; adapters only read them.
export const ACCEPTED: ReceiveResult = {
  code: "accepted",
  status: 200,
  headers: JSON_HEADERS,
  body: '{"received":true}',
};
// Literals, not a spread of ACCEPTED: bundlers drop an unused literal, not a spread (it might run getters).
export const DUPLICATE: ReceiveResult = {
  code: "duplicate",
  status: 200,
  headers: JSON_HEADERS,
  body: '{"received":true,"duplicate":true}',
};

// With `order`: at or below its object's handled position. Handlers not run; remembered as done.
export const STALE: ReceiveResult = {
  code: "stale",
  status: 200,
  headers: JSON_HEADERS,
  body: '{"received":true,"stale":true}',
};

/** What a refusal the sender should retry soon carries. */
export const RETRY_LATER = { headers: { "retry-after": "5" } };

/** An error answer; its status comes from the one code table. */
export function errorResult(
  code: ErrorCode,
  message: string,
  extra?: { headers?: Record<string, string>; issues?: readonly unknown[] | undefined },
): ReceiveResult {
  const error = extra?.issues ? { code, message, issues: extra.issues } : { code, message };
  return {
    code,
    status: STATUS_BY_CODE[code],
    headers: { ...JSON_HEADERS, ...extra?.headers },
    body: JSON.stringify({ error }),
  };
}
