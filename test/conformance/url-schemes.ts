import { createHmac } from "node:crypto";
import { WebhookVerificationError } from "@tidings/core";
import { defineScheme, hmacMatchers, malformed, requiredHeader } from "@tidings/core/schemes";

// A scheme written with the public `defineScheme`, as an app writes one for a sender outside the catalogue: it signs
// the URL and the form fields as Twilio does.

const HEADER = "x-form-signature";
const DISPLAY = "X-Form-Signature";
const SHA1 = hmacMatchers("sha1");
/** An HMAC-SHA1 in base64: 20 bytes. */
const BASE64_SHA1 = /^[A-Za-z0-9+/]{27}=$/;

const text = (payload: Uint8Array) => new TextDecoder().decode(payload);

/** Each field's name then its value, sorted by name (then value): what follows the URL in the signed string. */
function sortedFields(payload: Uint8Array): string {
  const fields = [...new URLSearchParams(text(payload))];
  fields.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return fields.map(([name, value]) => name + value).join("");
}

const stringField = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * A form POST signed over the URL the sender called and its fields: `X-Form-Signature: base64(HMAC-SHA1(secret,
 * url + name1 + value1 + name2 + value2…))`, fields sorted by name. The event is the form; its type is `EventType`,
 * its id `MessageSid`.
 */
export const urlFormScheme = defineScheme({
  name: "url-form",
  signatureHeader: HEADER,
  readsRequest: true,
  read(payload, headers, secrets, toleranceSeconds, request) {
    const signature = requiredHeader(headers, HEADER, DISPLAY);
    if (!BASE64_SHA1.test(signature)) throw malformed(DISPLAY, "not a base64 HMAC-SHA1");
    if (!request) throw new WebhookVerificationError("signature_mismatch", "No URL to check the signature against.");
    const content = {
      prefix: request.url + sortedFields(payload),
      payload: new Uint8Array(0),
      signatures: [signature],
      encoding: "base64" as const,
      label: DISPLAY,
      matchers: SHA1,
    };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  parse: (payload) => Object.fromEntries(new URLSearchParams(text(payload))),
  typeOf: (event) => stringField(event.EventType),
  idOf: (event) => stringField(event.MessageSid),
  sign(payload, secret, options) {
    if (options?.url === undefined) throw new TypeError("url-form signs the URL: pass options.url");
    const bytes = typeof payload === "string" ? new TextEncoder().encode(payload) : new Uint8Array(payload);
    const signed = options.url + sortedFields(bytes);
    return { [HEADER]: createHmac("sha1", secret).update(signed).digest("base64") };
  },
});
