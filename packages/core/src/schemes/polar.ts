import { matchHmacWithNodeCrypto } from "../crypto/node-crypto";
import { isAsymmetricKey, UTF8_SECRET } from "../crypto/secret-kind";
import type { Matchers, SignatureMatch, SignedContent } from "../crypto/signed-content";
import { matchHmacWithWebCrypto } from "../crypto/web-crypto";
import type { EventMap } from "../event-map";
import type { Scheme } from "./scheme";
import { STANDARD, standardScheme, WHSEC } from "./standard-webhooks";

/** The Standard Webhooks reading of a `whsec_` secret, tried after its text, as `@polar-sh/sdk` tries them. */
const decoded = (content: SignedContent, secret: string) =>
  secret.startsWith("whsec_") ? { ...content, format: WHSEC } : undefined;

/**
 * Secret by secret, in order: its UTF-8 bytes (the key Polar signs with), then, for a `whsec_<base64>` secret, the
 * decoded bytes (the key a Standard Webhooks library would use): a secret stands for both keys, as in Polar's SDK.
 */
const POLAR_MATCHERS: Matchers = {
  node(crypto, content, secrets) {
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const one = [secrets[secretIndex] as string];
      const other = decoded(content, one[0] as string);
      const match =
        matchHmacWithNodeCrypto(crypto, content, one) ?? (other && matchHmacWithNodeCrypto(crypto, other, one));
      if (match) return { secretIndex, signature: match.signature };
    }
    return undefined;
  },
  async web(content, secrets): Promise<SignatureMatch | undefined> {
    for (let secretIndex = 0; secretIndex < secrets.length; secretIndex++) {
      const one = [secrets[secretIndex] as string];
      const other = decoded(content, one[0] as string);
      const match =
        (await matchHmacWithWebCrypto(content, one)) ?? (other && (await matchHmacWithWebCrypto(other, one)));
      if (match) return { secretIndex, signature: match.signature };
    }
    return undefined;
  },
};

/**
 * Polar (polar.sh/docs/integrate/webhooks/delivery): Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) keyed by the secret's own UTF-8 bytes, its prefix included. Polar's secrets (`polar_whs_…`) are
 * not base64: Polar base64-encodes the whole string before handing it to a Standard Webhooks library, which decodes it
 * back, so the key is the text as written. A `whsec_<base64>` secret is also tried decoded, as `@polar-sh/sdk` does.
 */
export const POLAR: Scheme = /* @__PURE__ */ standardScheme({
  name: "polar",
  about: {
    sender: "Polar",
    docs: "https://polar.sh/docs/integrate/webhooks/delivery",
    headers: ["webhook-signature", "webhook-id", "webhook-timestamp"],
    signs: "HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, base64, as `v1,<base64>` (Standard Webhooks)",
    secret:
      "`polar_whs_…` (or any text), the whole string's UTF-8 bytes as the HMAC key; a `whsec_<base64>` one also decoded; an access token is refused",
    replay: "5 minutes, from `webhook-timestamp`",
    dedup: { key: "`webhook-id` (signed)", signed: true },
    testedAgainst:
      "`@polar-sh/sdk` 1 (`validateEvent`): verifies ours; `standardwebhooks` signs with the secret base64-encoded, as Polar does",
  },
  names: STANDARD,
  format: UTF8_SECRET,
  matchers: POLAR_MATCHERS,
  secretKind(secret) {
    if (isAsymmetricKey(secret)) throw new TypeError("An ed25519 key is no Polar webhook secret");
    if (/^polar_(oat|pat)_/.test(secret)) {
      throw new TypeError("A Polar webhook secret is polar_whs_…: the endpoint's secret, not an access token");
    }
    return "hmac";
  },
});

/**
 * Polar's webhooks (`order.paid`, `subscription.active`…); type handlers with the SDK's webhook payload types.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { polar } from "@tidings/core/schemes";
 *
 * type Events = { "order.paid": { type: "order.paid"; data: { id: string; total_amount: number } } };
 *
 * export const receiver = createReceiver({
 *   scheme: polar<Events>(),
 *   secret: process.env.POLAR_WEBHOOK_SECRET!, // "polar_whs_…", as the dashboard shows it
 * }).on("order.paid", ({ data }) => console.log("paid", data.id, data.total_amount));
 * ```
 */
export function polar<Events extends EventMap = EventMap>(): Scheme<Events> {
  return POLAR as Scheme<Events>;
}
