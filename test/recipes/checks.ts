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

/**
 * A signed delivery whose body opens with a UTF-8 byte order mark and holds multibyte characters (2, 3 and 4 bytes
 * long): `Request.text()` drops the BOM, so an endpoint that reads text verifies other bytes than were signed.
 */
export function bomMultibyteDelivery(messageId: string) {
  const event = { id: `evt_${messageId}`, type: "message.delivered", data: { id: messageId, note: "é — 日本語 🎉" } };
  return delivery(
    Uint8Array.from(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(event))])),
  );
}

/** Sends one signed delivery twice; resolves to the two responses' status and body. */
export async function sendTwiceTo(baseUrl: string, path: string): Promise<[number, string][]> {
  const wire = delivery(eventBody());
  const answers: [number, string][] = [];
  for (let i = 0; i < 2; i++) {
    const response = await sendOverHttp(baseUrl, path, wire);
    answers.push([response.status, response.body]);
  }
  return answers;
}

/** Sends a delivery whose body changed after signing; resolves to the status and error code. */
export async function sendTamperedTo(baseUrl: string, path: string): Promise<[number, string | undefined]> {
  const response = await sendOverHttp(baseUrl, path, delivery(eventBody(), { sendBody: eventBody() }));
  return [response.status, errorCode(response.body)];
}

/** Sends a delivery without its signature header; resolves to the status and error code. */
export async function sendUnsignedTo(baseUrl: string, path: string): Promise<[number, string | undefined]> {
  const wire = delivery(eventBody());
  const { "service-signature": _signature, ...headers } = wire.headers;
  const response = await sendOverHttp(baseUrl, path, { ...wire, headers });
  return [response.status, errorCode(response.body)];
}

/** Sends a GET; resolves to the status and the Allow header. */
export async function sendGetTo(baseUrl: string, path: string): Promise<[number, string | undefined]> {
  const response = await sendOverHttp(baseUrl, path, { method: "GET", headers: {} });
  return [response.status, response.headers.allow];
}

export function errorCode(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { code: string } }).error?.code;
}
