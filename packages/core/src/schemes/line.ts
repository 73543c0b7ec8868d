import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import type { ReceiveResult } from "../http/result";
import { isBase64Sha256 } from "../verification/formats";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-line-signature";
const DISPLAY = "X-Line-Signature";
/** LINE's event types: camelCase words (`message`, `memberJoined`, `videoPlayComplete`). */
const TYPE = /^[A-Za-z]+$/;
/** A `webhookEventId`: a ULID, 26 letters and digits (a little room kept). */
const EVENT_ID = /^[0-9A-Za-z]{1,64}$/;
/** The type of a body whose events are not all of one type. */
export const LINE_MIXED = "mixed";

/** The body's events, or undefined when `events` is not an array of objects. */
function eventsOf(body: DeliveryEvent): DeliveryEvent[] | undefined {
  const { events } = body;
  if (!Array.isArray(events)) return undefined;
  for (const event of events) if (typeof event !== "object" || event === null) return undefined;
  return events as DeliveryEvent[];
}

/** The type every event of the body shares (`message`), else `mixed`. */
function lineType(body: DeliveryEvent): string | undefined {
  const events = eventsOf(body);
  if (!events || events.length === 0) return undefined;
  const first = events[0]?.type;
  if (typeof first !== "string" || !TYPE.test(first)) return LINE_MIXED;
  return events.every((event) => event.type === first) ? first : LINE_MIXED;
}

/**
 * The body's `webhookEventId`: the one event's, or, for a body of several, theirs sorted and joined with commas (a
 * redelivery of the same events, in any order, is then the same key). Undefined (dedup by signature) when any event
 * lacks one.
 */
function lineId(body: DeliveryEvent): string | undefined {
  const events = eventsOf(body);
  if (!events || events.length === 0) return undefined;
  const ids: string[] = [];
  for (const event of events) {
    const id = event.webhookEventId;
    if (typeof id !== "string" || !EVENT_ID.test(id)) return undefined;
    ids.push(id);
  }
  return ids.length === 1 ? ids[0] : ids.sort().join(",");
}

/**
 * LINE Messaging API (developers.line.biz, "Verify webhook signature"): `X-Line-Signature: <base64 HMAC-SHA256 of the
 * body>`, keyed by the channel secret (UTF-8). No time is signed: each event's `timestamp` is when it happened, which a
 * redelivery keeps, so it bounds no replay.
 *
 * A body is `{ destination, events: [...] }` and is one delivery: handlers get it whole, as `@line/bot-sdk`'s middleware
 * hands it on. It is typed by the `type` its events share (`message`, `follow`, `postback`), and `mixed` when they do
 * not share one, so a handler registered for `message` sees only messages. It is deduplicated by its events'
 * `webhookEventId` (signed), which LINE's redelivery repeats (the redelivered body differs: `isRedelivery` is true). A
 * body with no events is the console's "Verify" request: answered 200 once verified, no handler run.
 */
export const LINE: Scheme = /* @__PURE__ */ defineScheme({
  name: "line",
  about: {
    sender: "LINE (Messaging API)",
    docs: "https://developers.line.biz/en/reference/messaging-api/#signature-validation",
    headers: [HEADER],
    signs: "HMAC-SHA256 of the body, base64",
    secret: "the channel secret, its UTF-8 bytes as the HMAC key",
    replay: "none: no delivery time is signed (an event's `timestamp` is when it happened; a redelivery keeps it)",
    dedup: {
      key: "the events' `webhookEventId` (one event's, or all of them sorted, for a body of several)",
      signed: true,
    },
    handshake: "the console's Verify (a body with no events): 200, once verified",
    testedAgainst: "`@line/bot-sdk` 11 (`validateSignature`, `middleware`): verifies ours; its algorithm signs",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!isBase64Sha256(value)) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const content = { prefix: "", payload, signatures: [value], encoding: "base64" as const, label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: lineType,
  idOf: lineId,
  respond(body): ReceiveResult | undefined {
    return eventsOf(body)?.length === 0 ? answer("{}") : undefined;
  },
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("base64") };
  },
});

/**
 * The event map of LINE deliveries from `@line/bot-sdk`'s `webhook.WebhookEvent` union: each type's body holds events of
 * that type, and `mixed` any.
 *
 * @example
 * ```ts
 * import type { webhook } from "@line/bot-sdk";
 * import { createReceiver } from "@tidings/core";
 * import { type LineEvents, line } from "@tidings/core/schemes";
 *
 * export const receiver = createReceiver({
 *   scheme: line<LineEvents<webhook.Event>>(),
 *   secret: process.env.LINE_CHANNEL_SECRET!,
 * }).on("message", ({ events }) => {
 *   for (const event of events) console.log(event.message.type, event.webhookEventId);
 * });
 * ```
 */
export type LineEvents<Event extends { type: string }> = {
  [Type in Event["type"]]: { destination: string; events: Extract<Event, { type: Type }>[] };
} & { mixed: { destination: string; events: Event[] } };

/**
 * LINE's Messaging API webhooks.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { line } from "@tidings/core/schemes";
 *
 * type Follow = { type: "follow"; webhookEventId: string; source: { userId: string } };
 *
 * export const receiver = createReceiver({
 *   scheme: line<{ follow: { destination: string; events: Follow[] } }>(),
 *   secret: process.env.LINE_CHANNEL_SECRET!,
 * }).on("follow", ({ events }) => {
 *   for (const event of events) console.log("followed by", event.source.userId);
 * });
 * ```
 */
export function line<Events extends EventMap = EventMap>(): Scheme<Events> {
  return LINE as Scheme<Events>;
}
