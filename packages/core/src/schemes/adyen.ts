import { hexToBytes } from "../crypto/hex";
import type { SecretKind } from "../crypto/secret-kind";
import type { SecretFormat } from "../crypto/signed-content";
import { WebhookVerificationError } from "../errors";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { malformed, noSignature } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { bodySigned, NO_BYTES, objectField, signedJsonBody } from "./signed-body";

const FIELD = "hmacSignature (Adyen, in the body)";
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** The HMAC key is the hex-decoded key from the Customer Area; anything else is no Adyen key. */
const ADYEN_KEY: SecretFormat = {
  keyBytes: (secret) => (HEX.test(secret) ? hexToBytes(secret.toLowerCase()) : undefined),
  nodeKeys: new Map(),
  webKeys: new Map(),
};

function adyenSecretKind(secret: string): SecretKind {
  if (!HEX.test(secret)) throw new TypeError("An Adyen HMAC key is hex (Customer Area, Webhooks, HMAC key)");
  return "hmac";
}

/** The notification's one item: Adyen sends one per notification; more is refused, as one delivery is one event. */
function itemOf(body: Record<string, unknown>): Record<string, unknown> {
  const items = body.notificationItems;
  if (!Array.isArray(items) || items.length === 0) {
    throw new WebhookVerificationError("missing_header", "No notificationItems in the body.");
  }
  if (items.length > 1) throw malformed(FIELD, "more than one notification item (Adyen sends one)");
  const item = objectField(objectField(items[0])?.NotificationRequestItem);
  if (item === undefined) throw malformed(FIELD, "no NotificationRequestItem");
  return item;
}

const text = (value: unknown) => (value === undefined || value === null ? "" : String(value));

/** What Adyen signs: `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`. */
function signedData(item: Record<string, unknown>): string {
  const amount = objectField(item.amount);
  if (amount === undefined) throw malformed(FIELD, "the item has no amount");
  const { pspReference, originalReference, merchantAccountCode, merchantReference, eventCode, success } = item;
  return `${text(pspReference)}:${text(originalReference)}:${text(merchantAccountCode)}:${text(merchantReference)}:${text(amount.value)}:${text(amount.currency)}:${text(eventCode)}:${text(success)}`;
}

/**
 * Adyen (docs.adyen.com/development-resources/webhooks/verify-hmac-signatures): each
 * `notificationItems[].NotificationRequestItem.additionalData.hmacSignature` is the base64 HMAC-SHA256, keyed by the
 * hex-decoded HMAC key, of the item's `pspReference:originalReference:merchantAccountCode:merchantReference:value:
 * currency:eventCode:success`. One item per notification (as Adyen sends); no time is signed. Picked by an
 * `application/json` Content-Type and a body holding `notificationItems`. `sign` cannot put a signature in a body.
 */
export const ADYEN: Scheme = /* @__PURE__ */ defineScheme({
  name: "adyen",
  signatureHeader: "content-type",
  about: {
    sender: "Adyen",
    docs: "https://docs.adyen.com/development-resources/webhooks/secure-webhooks/verify-hmac-signatures/",
    headers: ["content-type"],
    signs:
      "HMAC-SHA256 of the item's `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`, base64, in `additionalData.hmacSignature`",
    secret: "the HMAC key, hex (decoded to the key's bytes)",
    replay: "none: no time is signed",
    dedup: { key: "`pspReference`, `eventCode` and `success`", signed: true },
    testedAgainst: "`@adyen/api-library` 32 (`HmacValidator`): both directions",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const item = itemOf(signedJsonBody(payload, headers, "Adyen"));
    const signature = objectField(item.additionalData)?.hmacSignature;
    if (signature === undefined) throw new WebhookVerificationError("missing_header", "No hmacSignature in the item.");
    if (typeof signature !== "string" || !isBase64Sha256(signature)) throw noSignature(FIELD, "base64 HMAC-SHA256");
    const content = {
      prefix: signedData(item),
      payload: NO_BYTES,
      signatures: [signature],
      encoding: "base64" as const,
      label: "hmacSignature",
      format: ADYEN_KEY,
    };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  parse(payload): DeliveryEvent {
    return itemOf(JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>);
  },
  secretKind: adyenSecretKind,
  typeOf: (event) => nonEmptyString(event.eventCode),
  idOf: (event) => {
    const psp = nonEmptyString(event.pspReference);
    const code = nonEmptyString(event.eventCode);
    return psp && code && `adyen:${psp}:${code}:${text(event.success)}`;
  },
  sign: () => bodySigned("Adyen"),
});

/**
 * Adyen's scheme: handlers get the `NotificationRequestItem`, typed by its `eventCode` (`AUTHORISATION`…).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { adyen } from "@tidings/core/schemes";
 *
 * type Authorisation = { eventCode: "AUTHORISATION"; success: "true" | "false"; pspReference: string };
 *
 * export const receiver = createReceiver({
 *   scheme: adyen<{ AUTHORISATION: Authorisation }>(),
 *   secret: process.env.ADYEN_HMAC_KEY!, // hex
 * }).on("AUTHORISATION", (item) => console.log(item.pspReference, item.success));
 * ```
 */
export function adyen<Events extends EventMap = EventMap>(): Scheme<Events> {
  return ADYEN as Scheme<Events>;
}
