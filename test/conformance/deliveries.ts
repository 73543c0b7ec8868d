import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { sign } from "@tidings/core";
import type { WireRequest } from "./target";

export const SECRET = "whsec_conformance";

export function eventBody(fields: { id?: string; type?: string; messageId?: string } = {}): Uint8Array {
  const event = {
    id: fields.id ?? `evt_${Math.random().toString(36).slice(2)}`,
    type: fields.type ?? "message.delivered",
    data: { id: fields.messageId ?? "msg_1", status: "delivered", channel: "sms" },
  };
  return new TextEncoder().encode(JSON.stringify(event));
}

export interface DeliveryOptions {
  secret?: string;
  timestamp?: number;
  method?: string;
  headers?: Record<string, string>;
  /** Bytes to send instead of the signed ones (tampering). */
  sendBody?: Uint8Array;
  signature?: string;
}

/** A signed POST, as the service would send it. */
export function delivery(body: Uint8Array, options: DeliveryOptions = {}): WireRequest {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = options.signature ?? sign(body, options.secret ?? SECRET, { timestamp });
  return {
    method: options.method ?? "POST",
    headers: { "content-type": "application/json", "service-signature": signature, ...options.headers },
    body: options.sendBody ?? body,
  };
}

export const ENCODERS = {
  gzip: (bytes: Uint8Array) => new Uint8Array(gzipSync(bytes)),
  deflate: (bytes: Uint8Array) => new Uint8Array(deflateSync(bytes)),
  br: (bytes: Uint8Array) => new Uint8Array(brotliCompressSync(bytes)),
} as const;
