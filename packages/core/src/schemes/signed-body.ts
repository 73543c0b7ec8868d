import { WebhookVerificationError } from "../errors";
import type { HeaderSource } from "../http/headers";
import { malformed, requiredHeader } from "./headers";

const decoder = /* @__PURE__ */ new TextDecoder();
const JSON_TYPE = /^application\/json\b/i;

/** The bytes a body-signed scheme's HMAC covers besides its own prefix: none. */
export const NO_BYTES = /* @__PURE__ */ new Uint8Array(0);

/**
 * The JSON object of a body that carries its own signature (Mailgun, Adyen): such a scheme is picked by its
 * `Content-Type` (its `signatureHeader`: `missing_header` without one) and by the body holding its signature, which
 * `read` then looks for.
 */
export function signedJsonBody(payload: Uint8Array, headers: HeaderSource, sender: string): Record<string, unknown> {
  const type = requiredHeader(headers, "content-type", "Content-Type");
  // The type as senders write it is checked without the regex that admits its other spellings.
  if (type !== "application/json" && !JSON_TYPE.test(type))
    throw malformed("Content-Type", `${sender} signs inside a JSON body`);
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(payload));
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError("missing_header", `No ${sender} signature: the body is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}

/** A field of the body that must be an object. */
export const objectField = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** `sign` of a scheme whose sender signs inside the body: headers alone cannot carry it. */
export function bodySigned(sender: string): never {
  throw new TypeError(
    `${sender} signs inside the body: build the signed body as its docs say (see the scheme's about)`,
  );
}
