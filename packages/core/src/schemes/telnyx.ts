import { base64ToBytes } from "../crypto/base64";
import { publicKeyMatchers } from "../crypto/public-key";
import type { SecretKind } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isBase64Ed25519 } from "../verification/formats";
import { defineScheme } from "./define";
import { ed25519Format, ed25519SignRaw } from "./ed25519";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { signingBytes, signingTime } from "./sign-helpers";

const HEADER = "telnyx-signature-ed25519";
const DISPLAY = "Telnyx-Signature-Ed25519";
const TIMESTAMP = "telnyx-timestamp";
const TIMESTAMP_DISPLAY = "Telnyx-Timestamp";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Padded base64 of `length` bytes, or undefined. */
function base64Of(text: string, length: number): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  try {
    const bytes = base64ToBytes(text);
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Telnyx's public key: base64 of the raw 32 bytes, as Mission Control shows it. */
const TELNYX_KEY = /* @__PURE__ */ ed25519Format((secret) => base64Of(secret, 32), "base64");
const MATCHERS = /* @__PURE__ */ publicKeyMatchers(TELNYX_KEY);

function telnyxSecretKind(secret: string): SecretKind {
  if (base64Of(secret, 64))
    throw new TypeError("A 64-byte Telnyx key is a private key: give the receiver the public key");
  if (!base64Of(secret, 32)) {
    throw new TypeError("A Telnyx public key is base64 of 32 bytes (Mission Control, Keys & Credentials, Public Key)");
  }
  return "ed25519";
}

const dataOf = (event: DeliveryEvent) => event.data as DeliveryEvent | null | undefined;

/**
 * Telnyx (developers.telnyx.com, "Webhook signing"): `Telnyx-Signature-Ed25519: <base64 ed25519 signature of
 * "<Telnyx-Timestamp>|<body>">`, verified with the account's public key (base64 of 32 bytes); 5 minutes, as the SDK.
 * `sign` takes the private key as base64 of 64 bytes (seed and public key).
 */
export const TELNYX: Scheme = /* @__PURE__ */ defineScheme({
  name: "telnyx",
  signatureHeader: HEADER,
  about: {
    sender: "Telnyx",
    docs: "https://developers.telnyx.com/docs/messaging/messages/receiving-webhooks",
    headers: [HEADER, TIMESTAMP],
    signs: "ed25519 of `<Telnyx-Timestamp>|<body>`, base64",
    secret: "the account's public key, base64 of 32 bytes; a private key or an HMAC secret is refused",
    replay: "5 minutes, from `Telnyx-Timestamp` (as the SDK)",
    dedup: { key: "`data.id`", signed: true },
    testedAgainst: "`telnyx` 7 (`webhooks.unwrap`), with key pairs generated in the test: both directions",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const signature = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP_DISPLAY);
    const timestamp = timestampOf(timestampText, TIMESTAMP_DISPLAY);
    if (!isBase64Ed25519(signature)) throw noSignature(DISPLAY, "ed25519 signature (base64 of 64 bytes)");
    const content = {
      prefix: `${timestampText}|`,
      payload,
      signatures: [signature],
      encoding: "base64" as const,
      label: "ed25519",
      matchers: MATCHERS,
    };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  secretKind: telnyxSecretKind,
  typeOf: (event) => nonEmptyString(dataOf(event)?.event_type),
  idOf: (event) => nonEmptyString(dataOf(event)?.id),
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = String(signingTime(options?.timestamp));
    const key = base64Of(secret, 64);
    if (!key) throw new TypeError("Telnyx's sign takes the private key, base64 of 64 bytes (seed and public key)");
    const signed = Buffer.concat([Buffer.from(`${timestamp}|`), bytes]);
    return { [HEADER]: ed25519SignRaw(key.subarray(0, 32), signed).toString("base64"), [TIMESTAMP]: timestamp };
  },
});

/**
 * Telnyx's scheme: typed by `data.event_type` (`message.received`; a handler for `message` gets every message event).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { telnyx } from "@tidings/core/schemes";
 *
 * type Received = { data: { id: string; event_type: "message.received"; payload: { text: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: telnyx<{ "message.received": Received }>(),
 *   secret: process.env.TELNYX_PUBLIC_KEY!, // base64, from Mission Control
 * }).on("message.received", ({ data }) => console.log("text:", data.payload.text));
 * ```
 */
export function telnyx<Events extends EventMap = EventMap>(): Scheme<Events> {
  return TELNYX as Scheme<Events>;
}
