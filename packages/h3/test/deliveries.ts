import { createReceiver, type DeliveryContext, sign } from "@tidings/core";

export const SECRET = "whsec_h3";

export function recordingReceiver() {
  const seen: DeliveryContext[] = [];
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  return { receiver, seen };
}

/** A delivery whose body holds bytes that are not valid UTF-8, so any decode-and-re-encode breaks its signature. */
export function deliveryBody(id = "evt_h3"): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(
    Buffer.concat([
      Buffer.from(`{"id":"${id}","type":"message.sent","data":{"id":"msg_h3","status":"sent","channel":"sms","note":"`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}'),
    ]),
  );
}

export async function post(url: string, body: Uint8Array<ArrayBuffer>, signedBody: Uint8Array = body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(signedBody, SECRET) },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    json: JSON.parse(text) as { received?: boolean; error?: { code: string; message: string } },
  };
}
