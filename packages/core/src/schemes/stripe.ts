import { WebhookVerificationError } from "../errors";
import type { EventMap } from "../receiver/events";
import { parseHeaderDetailed } from "../verification/signature-header";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { payloadId, payloadType } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "stripe-signature";

/**
 * Stripe (docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t." + body>`,
 * several `v1` allowed and `v0` ignored; the key is the whole `whsec_…` string's UTF-8 bytes (not base64-decoded);
 * tolerance 300 s; dedup by the event's `id`, type from its `type`. The header reads by the service's rules, which are
 * Stripe's: they share the format.
 */
export const STRIPE: Scheme = /* @__PURE__ */ defineScheme({
  name: "stripe",
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, "Stripe-Signature");
    let parsed: ReturnType<typeof parseHeaderDetailed>;
    try {
      parsed = parseHeaderDetailed(value);
    } catch (error) {
      const { code, message } = error as WebhookVerificationError;
      throw new WebhookVerificationError(code, message.replace("Service-Signature", "Stripe-Signature"));
    }
    const content = { prefix: `${parsed.timestampText}.`, payload, signatures: parsed.signatures };
    return { content, secrets, timestamp: parsed.timestamp, toleranceSeconds };
  },
  typeOf: payloadType,
  idOf: payloadId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return { [HEADER]: `t=${timestamp},v1=${hmac(secret, `${timestamp}.`, bytes).toString("hex")}` };
  },
});

/** Stripe's scheme; type handlers with `Stripe.Event` from the `stripe` package (see the README). */
export function stripe<Events extends EventMap = EventMap>(): Scheme<Events> {
  return STRIPE as Scheme<Events>;
}
