import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isHexSha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-signature";
const DISPLAY = "X-Signature";

/** The body's `meta.event_name` (`order_created`): signed, where the `X-Event-Name` header is not. */
function eventName(event: DeliveryEvent): string | undefined {
  const meta = event.meta as DeliveryEvent | null | undefined;
  return typeof meta === "object" && meta !== null ? nonEmptyString(meta.event_name) : undefined;
}

/**
 * Lemon Squeezy (docs.lemonsqueezy.com/help/webhooks/signing-requests): `X-Signature: <hex HMAC-SHA256 of the body>`,
 * keyed by the signing secret you chose (UTF-8). No time is signed, and the body carries no event id: dedup is by the
 * signature, which Lemon Squeezy's retries of one body repeat. The type is the body's `meta.event_name`
 * (`subscription_created`); the unsigned `X-Event-Name` header is not read.
 */
export const LEMON_SQUEEZY: Scheme = /* @__PURE__ */ defineScheme({
  name: "lemon-squeezy",
  about: {
    sender: "Lemon Squeezy",
    docs: "https://docs.lemonsqueezy.com/help/webhooks/signing-requests",
    headers: [HEADER],
    signs: "HMAC-SHA256 of the body, hex",
    secret: "the webhook's signing secret (6 to 40 characters you chose), its UTF-8 bytes",
    replay: "none: no time is signed; a capture is a duplicate until the store forgets it",
    dedup: { key: "the signature (the body has no event id)", signed: true },
    testedAgainst: "Lemon Squeezy's documented algorithm, written out in the test (it publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const hex = requiredHeader(headers, HEADER, DISPLAY);
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "HMAC-SHA256 (64 lowercase hex)");
    const content = { prefix: "", payload, signatures: [hex], label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: eventName,
  idOf: () => undefined,
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("hex") };
  },
});

/**
 * Lemon Squeezy's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { lemonSqueezy } from "@tidings/core/schemes";
 *
 * type Order = { meta: { event_name: "order_created" }; data: { id: string; attributes: { user_email: string } } };
 *
 * export const receiver = createReceiver({
 *   scheme: lemonSqueezy<{ order_created: Order }>(),
 *   secret: process.env.LEMON_SQUEEZY_WEBHOOK_SECRET!,
 * }).on("order_created", ({ data }) => console.log("order", data.id, data.attributes.user_email));
 * ```
 */
export function lemonSqueezy<Events extends EventMap = EventMap>(): Scheme<Events> {
  return LEMON_SQUEEZY as Scheme<Events>;
}
