import { checkedHexBytes } from "../crypto/base64";
import { requireNodeCrypto } from "../crypto/node-crypto";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { malformed, noSignature, requiredHeader } from "./headers";
import { jwtDelivery, readHs256Jwt, signHs256Jwt } from "./jwt-hs256";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { signingBytes, signingTime } from "./sign-helpers";

const HEADER = "authorization";
const DISPLAY = "Authorization";
// A `+` loop with the length checked apart: V8 runs it in about half the instructions of `{64}`.
const HEX = /^[0-9a-fA-F]+$/;
// Vonage's statuses and channels: lower-case words (`delivered`, `whatsapp`, `viber_service`).
const WORD = /^[a-z0-9_]+$/;

/** The `payload_hash` claim: the body's SHA-256, hex (either case). */
function payloadHashOf(claims: Record<string, unknown>): Uint8Array {
  const hash = claims.payload_hash;
  if (typeof hash !== "string" || hash.length !== 64 || !HEX.test(hash)) {
    throw malformed(DISPLAY, "the JWT's payload_hash is not a hex SHA-256");
  }
  return checkedHexBytes(hash);
}

/**
 * `status.<status>` for a status or call event (`status.delivered`; a handler for `status` gets them all),
 * `inbound.<channel>` for an inbound message (`inbound.whatsapp`), `event` for anything else.
 */
function vonageType(event: DeliveryEvent): string {
  const status = nonEmptyString(event.status);
  if (status !== undefined) return WORD.test(status) ? `status.${status}` : "status";
  if (typeof event.message_type !== "string") return "event";
  const channel = nonEmptyString(event.channel);
  return channel !== undefined && WORD.test(channel) ? `inbound.${channel}` : "inbound";
}

/** The message's (or call's) uuid, and the status for a status event: each status of one message is its own event. */
function vonageId(event: DeliveryEvent): string | undefined {
  const uuid = nonEmptyString(event.message_uuid) ?? nonEmptyString(event.uuid);
  const status = nonEmptyString(event.status);
  return uuid && (status === undefined ? uuid : `${uuid}:${status}`);
}

/**
 * Vonage's signed webhooks (developer.vonage.com, "Signed webhooks"; Messages and Voice): `Authorization: Bearer <JWT,
 * HS256>` signed with the account's or application's signature secret, its `payload_hash` claim the body's SHA-256
 * (hex) and `iat` when it was signed.
 */
export const VONAGE: Scheme = /* @__PURE__ */ defineScheme({
  name: "vonage",
  signatureHeader: HEADER,
  about: {
    sender: "Vonage (Messages, Voice)",
    docs: "https://developer.vonage.com/en/getting-started/concepts/webhooks#decoding-signed-webhooks",
    headers: [HEADER],
    signs: "a JWT (HS256) whose `payload_hash` claim is the body's SHA-256, hex",
    secret: "the signature secret, as UTF-8 HMAC key",
    replay: "5 minutes from `iat` (Vonage documents none), never past `exp`",
    dedup: { key: "`message_uuid` (or a call's `uuid`), with `status` for a status event", signed: true },
    testedAgainst: "`@vonage/jwt` 1 (`verifySignature`): both directions",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!value.startsWith("Bearer ")) throw noSignature(DISPLAY, "Bearer token");
    const jwt = readHs256Jwt(value.slice(7).trim(), DISPLAY);
    return jwtDelivery(jwt, payload, secrets, toleranceSeconds, DISPLAY, payloadHashOf);
  },
  typeOf: vonageType,
  idOf: vonageId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const iat = signingTime(options?.timestamp);
    const payload_hash = requireNodeCrypto("sign").createHash("sha256").update(bytes).digest("hex");
    const claims = { iat, jti: options?.id ?? `${iat}-${payload_hash.slice(0, 8)}`, iss: "Vonage", payload_hash };
    return { [HEADER]: `Bearer ${signHs256Jwt(claims, secret)}` };
  },
});

/**
 * Vonage's signed-webhook scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { vonage } from "@tidings/core/schemes";
 *
 * type Status = { message_uuid: string; status: "delivered"; to: string };
 *
 * export const receiver = createReceiver({
 *   scheme: vonage<{ "status.delivered": Status }>(),
 *   secret: process.env.VONAGE_SIGNATURE_SECRET!,
 * }).on("status.delivered", (status) => console.log("delivered to", status.to));
 * ```
 */
export function vonage<Events extends EventMap = EventMap>(): Scheme<Events> {
  return VONAGE as Scheme<Events>;
}
