import { SIGNATURE_HEADER, sign } from "@tidings/core";

export const SECRET = "whsec_otel_test_secret";

export interface Delivery {
  body: string;
  signature: string;
}

/** A signed delivery of the default event model; `timestamp` in Unix seconds (default: now). */
export function delivery(
  event: { type: string; id?: string; data?: object },
  options: { timestamp?: number; secret?: string } = {},
): Delivery {
  const body = JSON.stringify({ data: { id: "msg_1", status: "delivered", channel: "sms" }, ...event });
  const signature = sign(body, options.secret ?? SECRET, options.timestamp === undefined ? {} : options);
  return { body, signature };
}

/** POSTs the delivery; the status and the answer's code. */
export async function post(url: string, { body, signature }: Delivery): Promise<{ status: number; code: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
    body,
  });
  const answer = (await response.json()) as { error?: { code: string }; duplicate?: boolean };
  return { status: response.status, code: answer.error?.code ?? (answer.duplicate ? "duplicate" : "accepted") };
}
