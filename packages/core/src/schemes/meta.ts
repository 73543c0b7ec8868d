import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { HUB_HEADER, hubSignatureOf, readHubSignature, signHub } from "./hub-signature";
import type { Scheme } from "./scheme";

// Meta's object names and change fields: lower-case words joined by underscores (`whatsapp_business_account`).
const WORD = /^[a-z0-9_]+$/;

/** The one `field` every change of every entry names, if there is one and it is a word. */
function sharedField(entries: unknown): string | undefined {
  if (!Array.isArray(entries)) return undefined;
  let shared: string | undefined;
  for (const entry of entries) {
    const changes = (entry as DeliveryEvent | null)?.changes;
    if (!Array.isArray(changes)) return undefined;
    for (const change of changes) {
      const field = (change as DeliveryEvent | null)?.field;
      if (typeof field !== "string" || !WORD.test(field) || (shared !== undefined && field !== shared))
        return undefined;
      shared = field;
    }
  }
  return shared;
}

/** `<object>.<field>` when every change names one field (`whatsapp_business_account.messages`), else `<object>`. */
function metaType(event: DeliveryEvent): string | undefined {
  const { object } = event;
  if (typeof object !== "string" || !WORD.test(object)) return undefined;
  const field = sharedField(event.entry);
  return field === undefined ? object : `${object}.${field}`;
}

/**
 * Meta's Graph API webhooks (WhatsApp Business, Instagram, Messenger, and any other object an app subscribes to), POST
 * deliveries (developers.facebook.com/docs/graph-api/webhooks/getting-started): `X-Hub-Signature-256: sha256=<hex
 * HMAC-SHA256 of the body>`, keyed by the app secret (UTF-8), no time signed. The GET verification request
 * (`hub.mode=subscribe`, `hub.verify_token`, `hub.challenge`) is not read here.
 *
 * The type is the body's `object`, and `<object>.<field>` when every change of every entry names one `field`
 * (`whatsapp_business_account.messages`; a handler for `whatsapp_business_account` sees those too); Messenger's
 * `messaging` entries are typed by the object alone (`page`). A body names no id of its own, so it is deduplicated by
 * its signature, `meta:<hex>`, which Meta's retries of the same batch repeat.
 */
export const META: Scheme = /* @__PURE__ */ defineScheme({
  name: "meta",
  about: {
    sender: "Meta (WhatsApp, Instagram, Messenger)",
    docs: "https://developers.facebook.com/docs/graph-api/webhooks/getting-started#event-notifications",
    headers: [HUB_HEADER],
    signs: "HMAC-SHA256 of the body, hex, as `sha256=<hex>`",
    secret: "the app secret, its UTF-8 bytes as the HMAC key",
    replay: "none: no time is signed",
    dedup: { key: "`meta:<the hex signature>`: the body names no delivery id", signed: true },
    handshake: "none yet: the GET verification request (`hub.challenge`) is answered outside the scheme",
    testedAgainst: "Meta's documented algorithm (it publishes no Node SDK that verifies): both directions",
  },
  signatureHeader: HUB_HEADER,
  read: readHubSignature,
  typeOf: metaType,
  idOf: (_event, _body, headers) => `meta:${hubSignatureOf(headers)}`,
  sign: signHub,
});

/**
 * Meta's webhooks (WhatsApp Business, Instagram, Messenger), POST deliveries.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { meta } from "@tidings/core/schemes";
 *
 * type Change = { field: "messages"; value: { messages?: { id: string; from: string }[] } };
 * type Events = { "whatsapp_business_account.messages": { object: string; entry: { id: string; changes: Change[] }[] } };
 *
 * export const receiver = createReceiver({ scheme: meta<Events>(), secret: process.env.META_APP_SECRET! }).on(
 *   "whatsapp_business_account.messages",
 *   ({ entry }) => {
 *     for (const { changes } of entry) for (const { value } of changes) console.log(value.messages?.length ?? 0, "messages");
 *   },
 * );
 * ```
 */
export function meta<Events extends EventMap = EventMap>(): Scheme<Events> {
  return META as Scheme<Events>;
}
