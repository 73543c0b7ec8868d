import { sign } from "@tidings/core";

export const SECRET = "whsec_nestjs";

export function eventBody(
  type = "message.delivered",
  id = `evt_${Math.random().toString(36).slice(2)}`,
): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify({ id, type, data: { id: "msg_1", status: "delivered", channel: "sms" } }),
  );
}

/** POSTs a body signed with `secret` (the one signed may differ from the one sent: tampering). */
export function deliver(
  url: string,
  body: Uint8Array<ArrayBuffer>,
  options: { secret?: string; sent?: Uint8Array<ArrayBuffer> } = {},
) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, options.secret ?? SECRET) },
    body: options.sent ?? body,
  });
}
