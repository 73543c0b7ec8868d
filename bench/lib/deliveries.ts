import { sign } from "@tidings/core";

/** The endpoint secret every benchmark signs and verifies with. */
export const SECRET = "whsec_bench_5f0c1e9a7b3d4c2e8f6a1b0c9d8e7f6a";
export const EVENT_TYPE = "message.delivered";
export const SIGNATURE_HEADER = "service-signature";

export interface Delivery {
  body: Buffer;
  header: string;
  timestamp: number;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A JSON event of exactly `size` bytes; `id` is the dedup key, so distinct ids are distinct deliveries. */
export function eventBody(size: number, id: string): Buffer {
  const head = `{"id":"${id}","type":"${EVENT_TYPE}","created":1700000000,"data":{"id":"msg_${id}","status":"delivered","channel":"sms","note":"`;
  const tail = `"}}`;
  const padding = size - head.length - tail.length;
  if (padding < 0) throw new Error(`an event with id ${id} needs more than ${size} bytes`);
  return Buffer.from(head + "x".repeat(padding) + tail);
}

/** A body signed with the library's own `sign`, as the service would send it. */
export function signedDelivery(size: number, id: string, timestamp = nowSeconds()): Delivery {
  const body = eventBody(size, id);
  return { body, header: sign(body, SECRET, { timestamp }), timestamp };
}

/** The parts of a `t=…,v1=…` header that the floor is handed ready-made. */
export function headerParts(header: string): { timestampText: string; v1: string } {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) throw new Error(`unexpected header ${header}`);
  return { timestampText: match[1] as string, v1: match[2] as string };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} B`;
}
