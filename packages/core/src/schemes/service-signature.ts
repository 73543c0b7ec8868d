import { hmacSecretKind, UTF8_SECRET } from "../crypto/secret-kind";
import type { MessageEvents } from "../event-map";
import { headerValue } from "../http/headers";
import { SIGNATURE_HEADER } from "../verification/constants";
import { sign } from "../verification/sign";
import { parseSignedDelivery } from "../verification/signed-delivery";
import { verify } from "../verification/verify";
import { verifyAsync } from "../verification/verify-async";
import { payloadId, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";

/**
 * The messaging service's own scheme, the default: `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t." + body>`,
 * the secret's UTF-8 bytes as the key (an ed25519 key is none), type and dedup id from the payload's `type` and `id`.
 */
export const SERVICE_SIGNATURE: Scheme<MessageEvents> = {
  name: "service-signature",
  about: {
    sender: "The messaging service",
    docs: "https://github.com/tidings/tidings/tree/main/packages/core#the-rules",
    headers: [SIGNATURE_HEADER],
    signs: "HMAC-SHA256 of `<t>.<body>`, hex, as `t=<unix>,v1=<hex>` (several `v1` allowed)",
    secret: "any string, its UTF-8 bytes as the HMAC key",
    replay: "5 minutes, from `t`",
    dedup: { key: "the event's `id` (signed)", signed: true },
    testedAgainst: "the OpenSSL known-answer vectors (`test/vectors`)",
  },
  signatureHeader: SIGNATURE_HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const signed = parseSignedDelivery(payload, headerValue(headers, SIGNATURE_HEADER), secrets, toleranceSeconds);
    signed.content.format = UTF8_SECRET;
    return signed;
  },
  secretKind: hmacSecretKind,
  typeOf: payloadType,
  idOf: payloadId,
  sign: (payload, secret, options) => ({ [SIGNATURE_HEADER]: sign(payload, secret, options) }),
  verify: (payload, headers, secret, options) =>
    verify(payload, headerValue(headers, SIGNATURE_HEADER), secret, options),
  verifyAsync: (payload, headers, secret, options) =>
    verifyAsync(payload, headerValue(headers, SIGNATURE_HEADER), secret, options),
};

/**
 * The service's scheme (`Service-Signature`), which a Receiver uses when given none.
 *
 * @example
 * ```ts
 * import { serviceSignature } from "@tidings/core/schemes";
 *
 * const body = JSON.stringify({ id: "evt_1", type: "message.sent", data: { id: "msg_1", status: "sent" } });
 * const headers = serviceSignature().sign(body, "whsec_test"); // { "service-signature": "t=…,v1=…" }
 *
 * const { timestamp, secretIndex } = serviceSignature().verify(body, headers, "whsec_test");
 * console.log(timestamp, secretIndex);
 * ```
 */
export function serviceSignature(): Scheme<MessageEvents> {
  return SERVICE_SIGNATURE;
}
