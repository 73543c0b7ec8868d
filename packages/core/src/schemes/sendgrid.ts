import { isBase64DerSignature, P256_DER_BASE64 } from "../crypto/ecdsa-p256";
import { requireNodeCrypto } from "../crypto/node-crypto";
import { publicKeyMatchers } from "../crypto/public-key";
import { type SecretKind, UTF8_SECRET } from "../crypto/secret-kind";
import { WebhookVerificationError } from "../errors";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { encoder } from "../ground/utf8";
import { defineScheme } from "./define";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { signingBytes, signingTime } from "./sign-helpers";

const HEADER = "x-twilio-email-event-webhook-signature";
const DISPLAY = "X-Twilio-Email-Event-Webhook-Signature";
const TIMESTAMP = "x-twilio-email-event-webhook-timestamp";
const TIMESTAMP_DISPLAY = "X-Twilio-Email-Event-Webhook-Timestamp";
const MATCHERS = /* @__PURE__ */ publicKeyMatchers(P256_DER_BASE64);
const decoder = /* @__PURE__ */ new TextDecoder();

function sendgridSecretKind(secret: string): SecretKind {
  if (/PRIVATE KEY|^MIG[HT]AgEAMBMGByqGSM49/.test(secret)) {
    throw new TypeError("That is a private key: give the receiver SendGrid's verification key (a public key)");
  }
  if (!P256_DER_BASE64.spki(secret)) {
    throw new TypeError(
      "A SendGrid verification key is base64 of an ECDSA P-256 public key (Mail Settings, Signed Event Webhook)",
    );
  }
  return "ecdsa-p256";
}

/**
 * A batch of SendGrid events, as handlers of the `batch` type get it.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type SendGridBatch, sendgrid } from "@tidings/core/schemes";
 *
 * type Event = { event: string; email: string; sg_event_id: string };
 *
 * export const receiver = createReceiver({
 *   scheme: sendgrid<{ batch: SendGridBatch<Event> }>(),
 *   secret: process.env.SENDGRID_VERIFICATION_KEY!,
 * }).on("batch", ({ events }) => {
 *   for (const { event, email } of events) console.log(event, email);
 * });
 * ```
 */
export interface SendGridBatch<Event = DeliveryEvent> {
  events: readonly Event[];
}

/** The body, a JSON array of event objects, as `{ events }`. */
function parseBatch(payload: Uint8Array): DeliveryEvent {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(payload));
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || !value.every((one) => typeof one === "object" && one !== null && !Array.isArray(one))) {
    throw new WebhookVerificationError(
      "invalid_payload",
      "Signature valid, but the body is not a JSON array of events.",
    );
  }
  return { events: value };
}

/**
 * The batch's id: how many events, and the first and last `sg_event_id` (each event's is unique, and a batch sent again
 * is sent as it was); undefined (dedup by the signature) when an event has none.
 */
function batchId(event: DeliveryEvent): string | undefined {
  const events = event.events as readonly DeliveryEvent[];
  const first = nonEmptyString(events[0]?.sg_event_id);
  const last = nonEmptyString(events[events.length - 1]?.sg_event_id);
  return first && last ? `sendgrid:${events.length}:${first}:${last}` : undefined;
}

/**
 * SendGrid's Event Webhook (twilio.com/docs/sendgrid, "Event Webhook Security Features"):
 * `X-Twilio-Email-Event-Webhook-Signature: <base64 DER ECDSA P-256/SHA-256 signature of the timestamp + body>`,
 * verified with the verification key (base64 of the public key's DER). The body is a JSON array of events: one
 * delivery is one `batch` event, `{ events }`, as the Receiver runs handlers once per delivery.
 */
export const SENDGRID: Scheme = /* @__PURE__ */ defineScheme({
  name: "sendgrid",
  signatureHeader: HEADER,
  about: {
    sender: "SendGrid (Event Webhook)",
    docs: "https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features",
    headers: [HEADER, TIMESTAMP],
    signs: "ECDSA P-256 / SHA-256 of `<timestamp><body>`, base64 DER",
    secret: "the verification key: base64 of the P-256 public key (DER); a private key or an HMAC secret is refused",
    replay: "5 minutes (SendGrid documents none), from the timestamp header",
    dedup: { key: "the batch: its count and first and last `sg_event_id`", signed: true },
    testedAgainst:
      "`@sendgrid/eventwebhook` 8 (`verifySignature`), with key pairs generated in the test: both directions",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const signature = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP_DISPLAY);
    const timestamp = timestampOf(timestampText, TIMESTAMP_DISPLAY);
    if (!isBase64DerSignature(signature)) throw noSignature(DISPLAY, "ECDSA signature (base64 DER)");
    const content = {
      prefix: timestampText,
      payload,
      signatures: [signature],
      encoding: "base64" as const,
      // What `defineScheme` would set: set here, the object keeps one shape.
      format: UTF8_SECRET,
      label: "ECDSA",
      matchers: MATCHERS,
    };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  parse: parseBatch,
  secretKind: sendgridSecretKind,
  typeOf: () => "batch",
  idOf: batchId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = String(signingTime(options?.timestamp));
    const crypto = requireNodeCrypto("sign");
    const key = secret.includes("PRIVATE KEY")
      ? crypto.createPrivateKey(secret)
      : crypto.createPrivateKey({ key: Buffer.from(secret, "base64"), format: "der", type: "pkcs8" });
    const signature = crypto.sign("sha256", Buffer.concat([encoder.encode(timestamp), bytes]), key);
    return { [HEADER]: signature.toString("base64"), [TIMESTAMP]: timestamp };
  },
});

/**
 * SendGrid's Event Webhook scheme: each delivery a `batch` of events.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type SendGridBatch, sendgrid } from "@tidings/core/schemes";
 *
 * type MailEvent = { event: "delivered" | "open" | "bounce"; email: string; sg_event_id: string };
 *
 * export const receiver = createReceiver({
 *   scheme: sendgrid<{ batch: SendGridBatch<MailEvent> }>(),
 *   secret: process.env.SENDGRID_VERIFICATION_KEY!, // "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE…"
 * }).on("batch", ({ events }) => {
 *   for (const mail of events) if (mail.event === "bounce") console.log("bounced:", mail.email);
 * });
 * ```
 */
export function sendgrid<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SENDGRID as Scheme<Events>;
}
