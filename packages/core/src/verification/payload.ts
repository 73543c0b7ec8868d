import { WebhookVerificationError } from "../errors";

/** What a caller may hand us as the body: the exact bytes received, or text that encodes to them in UTF-8. */
export type RawPayload = string | Uint8Array | ArrayBuffer;

export const encoder = /* @__PURE__ */ new TextEncoder();

/** The payload's bytes, or undefined when it is not raw (typically an object a body parser produced). */
export function payloadBytes(payload: unknown): Uint8Array | undefined {
  if (payload instanceof Uint8Array) return payload;
  if (typeof payload === "string") return encoder.encode(payload);
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload)) {
    // A view from another realm, or a non-Uint8Array view: keep its offset, never the whole backing buffer.
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }
  return undefined;
}

export function requirePayloadBytes(payload: unknown): Uint8Array {
  const bytes = payloadBytes(payload);
  if (bytes !== undefined) return bytes;
  const got = payload === null ? "null" : typeof payload;
  throw new WebhookVerificationError(
    "body_already_parsed",
    `Expected the raw body bytes, got ${got}: a body parser read it first.`,
  );
}
