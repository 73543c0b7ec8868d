import { delivery, eventBody } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";

/** A signed delivery whose body holds bytes that are not valid UTF-8: any decode and re-encode breaks it. */
export function nonUtf8Delivery(messageId: string) {
  const body = Buffer.concat([
    Buffer.from(`{"id":"evt_${messageId}","type":"message.delivered","data":{"id":"${messageId}","note":"`),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}}'),
  ]);
  return delivery(Uint8Array.from(body));
}

/** Sends a delivery whose body changed after signing; resolves to the status and error code. */
export async function sendTamperedTo(baseUrl: string, path: string): Promise<[number, string | undefined]> {
  const response = await sendOverHttp(baseUrl, path, delivery(eventBody(), { sendBody: eventBody() }));
  return [response.status, errorCode(response.body)];
}

export function errorCode(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { code: string } }).error?.code;
}
