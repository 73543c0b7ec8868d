import { type ErrorCode, type OutcomeCode, STATUS_BY_CODE } from "../errors";

export type { OutcomeCode } from "../errors";

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

/** A delivery handled: `accepted`, `duplicate` or `stale`, with `body`; its status from the one code table. */
export function handled(code: "accepted" | "duplicate" | "stale", body: string): ReceiveResult {
  return { code, status: STATUS_BY_CODE[code], headers: JSON_HEADERS, body };
}

// Built once and shared by every delivery so answered; adapters only read them. Pure calls: a bundle of `verify` alone
// drops them.
export const ACCEPTED: ReceiveResult = /* @__PURE__ */ handled("accepted", '{"received":true}');
export const DUPLICATE: ReceiveResult = /* @__PURE__ */ handled("duplicate", '{"received":true,"duplicate":true}');
// With `order`: at or below its object's handled position. Handlers not run; remembered as done.
export const STALE: ReceiveResult = /* @__PURE__ */ handled("stale", '{"received":true,"stale":true}');

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
