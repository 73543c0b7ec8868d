import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";
import { timedPairsReader } from "./timed-pairs";

const HEADER = "calendly-webhook-signature";
const DISPLAY = "Calendly-Webhook-Signature";
const readPairs = /* @__PURE__ */ timedPairsReader({ separator: ",", time: "t", signature: "v1", display: DISPLAY });

/**
 * Calendly's events carry no id: one is the event's name, when it was created and the resource it is about
 * (`invitee.canceled` shares its invitee's `uri` with `invitee.created`, and an invitee marked a no-show twice has
 * two `created_at`). All of it is signed; undefined (dedup by the signature) where a field is missing.
 */
function calendlyId(event: DeliveryEvent): string | undefined {
  const name = nonEmptyString(event.event);
  const createdAt = nonEmptyString(event.created_at);
  const resource = event.payload as DeliveryEvent | null | undefined;
  const uri = typeof resource === "object" && resource !== null ? nonEmptyString(resource.uri) : undefined;
  // JSON.stringify keeps the parts apart whatever they hold: no two triples make one id.
  return name && createdAt && uri ? `calendly:${JSON.stringify([name, createdAt, uri])}` : undefined;
}

/**
 * Calendly (developer.calendly.com, "Webhook Signatures"): `Calendly-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256
 * of "<t>.<body>">`, keyed by the webhook signing key (UTF-8). Calendly documents no SDK for it, and no window
 * (its sample uses 3 minutes): the Receiver's tolerance applies. The type is the body's `event` (`invitee.created`).
 */
export const CALENDLY: Scheme = /* @__PURE__ */ defineScheme({
  name: "calendly",
  toleranceSeconds: 180,
  about: {
    sender: "Calendly",
    docs: "https://developer.calendly.com/api-docs/overview/webhooks/webhook-signatures",
    headers: [HEADER],
    signs: "HMAC-SHA256 of `<t>.<body>`, hex, in `v1`",
    secret: "the webhook signing key (yours, or the OAuth app's), its UTF-8 bytes",
    replay:
      "3 minutes from `t`, as Calendly's documented sample checks; a `toleranceSeconds` given to the Receiver wins",
    dedup: { key: "the body's `event`, `created_at` and `payload.uri`", signed: true },
    testedAgainst: "Calendly's documented algorithm, written out in the test (Calendly publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const { timestampText, timestamp, signatures } = readPairs(requiredHeader(headers, HEADER, DISPLAY));
    const content = { prefix: `${timestampText}.`, payload, signatures };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  typeOf: (event) => nonEmptyString(event.event),
  idOf: calendlyId,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return { [HEADER]: `t=${timestamp},v1=${hmac(secret, `${timestamp}.`, bytes).toString("hex")}` };
  },
});

/**
 * Calendly's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { calendly } from "@tidings/core/schemes";
 *
 * type Events = { "invitee.created": { event: "invitee.created"; payload: { uri: string; email: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: calendly<Events>(),
 *   secret: process.env.CALENDLY_WEBHOOK_SIGNING_KEY!,
 * }).on("invitee.created", ({ payload }) => console.log("booked:", payload.email));
 * ```
 */
export function calendly<Events extends EventMap = EventMap>(): Scheme<Events> {
  return CALENDLY as Scheme<Events>;
}
