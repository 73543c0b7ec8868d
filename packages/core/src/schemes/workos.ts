import { hmacSecretKind } from "../crypto/secret-kind";
import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { nonEmptyString, payloadId } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";
import { timedPairsReader } from "./timed-pairs";

const HEADER = "workos-signature";
const DISPLAY = "WorkOS-Signature";
const readPairs = /* @__PURE__ */ timedPairsReader({ separator: ",", time: "t", signature: "v1", display: DISPLAY });
// WorkOS's API keys: given where the webhook secret goes, they verify nothing.
const API_KEY = /^sk_(test|live)_/;

/**
 * WorkOS (workos.com/docs/events/data-syncing/webhooks): `WorkOS-Signature: t=<unix ms>, v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`, the time in milliseconds (its digits as sent are what is signed), keyed by the endpoint's webhook
 * secret (UTF-8). The type is the body's `event` (`dsync.user.created`), the dedup id its `id`, both signed.
 */
export const WORKOS: Scheme = /* @__PURE__ */ defineScheme({
  name: "workos",
  toleranceSeconds: 180,
  about: {
    sender: "WorkOS",
    docs: "https://workos.com/docs/events/data-syncing/webhooks",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<t>.<body>`, hex, in `v1`; `t` in milliseconds",
    secret: "the webhook endpoint's secret, its UTF-8 bytes; an API key (`sk_…`) is refused",
    replay: "3 minutes from `t`, as WorkOS's SDK checks; a `toleranceSeconds` given to the Receiver wins",
    dedup: { key: "the body's `id`", signed: true },
    testedAgainst: "`@workos-inc/node` 11 (`webhooks.constructEvent`, `computeSignature`): both directions",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const { timestampText, timestamp: milliseconds, signatures } = readPairs(requiredHeader(headers, HEADER, DISPLAY));
    const content = { prefix: `${timestampText}.`, payload, signatures };
    const timestamp = Math.floor(milliseconds / 1000);
    return { content, secrets, timestamp, toleranceSeconds };
  },
  secretKind(secret) {
    if (API_KEY.test(secret)) throw new TypeError("A WorkOS webhook secret is the endpoint's secret, not an API key");
    return hmacSecretKind(secret);
  },
  typeOf: (event) => nonEmptyString(event.event),
  idOf: payloadId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const milliseconds = signingTime(options?.timestamp) * 1000;
    return { [HEADER]: `t=${milliseconds}, v1=${hmac(secret, `${milliseconds}.`, bytes).toString("hex")}` };
  },
});

/**
 * WorkOS's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { workos } from "@tidings/core/schemes";
 *
 * type Events = { "dsync.user.created": { id: string; event: "dsync.user.created"; data: { email: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: workos<Events>(),
 *   secret: process.env.WORKOS_WEBHOOK_SECRET!,
 * }).on("dsync.user.created", ({ data }) => console.log("provisioned:", data.email));
 * ```
 */
export function workos<Events extends EventMap = EventMap>(): Scheme<Events> {
  return WORKOS as Scheme<Events>;
}
