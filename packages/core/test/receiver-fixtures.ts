import { sign } from "../src/entries";

export const SECRET = "whsec_receiver";
export const quietLogger = { error() {} };

export function event(fields: Record<string, unknown> = {}) {
  return {
    id: "evt_1",
    type: "message.delivered",
    data: { id: "msg_1", status: "delivered", channel: "sms" },
    ...fields,
  };
}

/** A signed delivery as `receive` takes it. */
export function signed(payload: unknown, options: { secret?: string; signature?: string } = {}) {
  const rawBody = new TextEncoder().encode(typeof payload === "string" ? payload : JSON.stringify(payload));
  const signature = options.signature ?? sign(rawBody, options.secret ?? SECRET);
  return { rawBody, headers: { "service-signature": signature } };
}

export function bodyOf(result: { body: string }) {
  return JSON.parse(result.body) as {
    received?: boolean;
    duplicate?: boolean;
    error?: { code: string; message: string; issues?: unknown[] };
  };
}
