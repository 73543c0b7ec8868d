import { UTF8_SECRET } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { headerValue } from "../http/headers";
import { isHexSha256 } from "../verification/formats";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { malformed, noSignature, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "twitch-eventsub-message-signature";
const DISPLAY = "Twitch-Eventsub-Message-Signature";
const ID = "twitch-eventsub-message-id";
const ID_DISPLAY = "Twitch-Eventsub-Message-Id";
const TIMESTAMP = "twitch-eventsub-message-timestamp";
const TIMESTAMP_DISPLAY = "Twitch-Eventsub-Message-Timestamp";
const TYPE = "twitch-eventsub-message-type";
// RFC 3339, as Twitch writes it (`2023-07-19T10:11:12.123456789Z`): fixed places for every field but the fraction,
// which is never signed time.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** The number `count` digits from `at` write. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

/** Twitch's window: "older than 10 minutes", its docs say. */
const TWITCH_TOLERANCE_SECONDS = 600;

/** Days from 1970-01-01 to a proleptic Gregorian date; a day past its month's end runs into the next, as Date's does. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
}

/**
 * The Unix seconds of an RFC 3339 time, with the ranges `Date.parse` allows (months 1–12, days 1–31, hours to 24:00:00,
 * offsets to ±23:59), computed from its fields: `Date.parse` costs a 256 B delivery more than its header's parsing.
 */
export function rfc3339Seconds(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined;
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (month < 1 || month > 12 || day < 1 || day > 31 || minute > 59 || second > 59) return undefined;
  if (hour > 24 || (hour === 24 && (minute > 0 || second > 0))) return undefined;
  const local = daysFromCivil(digits(text, 0, 4), month, day) * 86400 + hour * 3600 + minute * 60 + second;
  if (text.endsWith("Z")) return local;
  const at = text.length - 6;
  const offsetHours = digits(text, at + 1, 2);
  const offsetMinutes = digits(text, at + 4, 2);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (offsetHours * 60 + offsetMinutes) * 60;
  return text.charCodeAt(at) === 45 ? local + offset : local - offset;
}

function secondsOf(text: string): number {
  const seconds = rfc3339Seconds(text);
  if (seconds === undefined) throw malformed(TIMESTAMP_DISPLAY, "not an RFC 3339 time");
  return seconds;
}

/** A notification by its subscription's type (`channel.follow`); a body with no `event` is a `revocation`. */
function twitchType(event: DeliveryEvent): string | undefined {
  if (typeof event.event !== "object" || event.event === null) return "revocation";
  return nonEmptyString((event.subscription as DeliveryEvent | null | undefined)?.type);
}

/**
 * Twitch EventSub webhooks (dev.twitch.tv/docs/eventsub/handling-webhook-events): `Twitch-Eventsub-Message-Signature:
 * sha256=<hex HMAC-SHA256 of message id + timestamp + body>`, keyed by the subscription's secret (UTF-8); 10 minutes,
 * as Twitch documents, unless `toleranceSeconds` is set otherwise. `webhook_callback_verification` is answered with its
 * `challenge`, as plain text, once verified. Typed from the signed body only (the message-type header is not signed).
 */
export const TWITCH: Scheme = /* @__PURE__ */ defineScheme({
  name: "twitch",
  signatureHeader: HEADER,
  about: {
    sender: "Twitch EventSub",
    docs: "https://dev.twitch.tv/docs/eventsub/handling-webhook-events/#verifying-the-event-message",
    headers: [HEADER, ID, TIMESTAMP, TYPE],
    signs: "HMAC-SHA256 of `<message id><timestamp><body>`, hex",
    secret: "the subscription's secret, as UTF-8 HMAC key",
    replay: "10 minutes, from `Twitch-Eventsub-Message-Timestamp` (RFC 3339)",
    dedup: { key: "`Twitch-Eventsub-Message-Id`", signed: true },
    handshake: "`webhook_callback_verification`: its `challenge`, as text/plain, once verified",
    testedAgainst: "Twitch's documented algorithm (no SDK verifies), written out in the test",
  },
  toleranceSeconds: TWITCH_TOLERANCE_SECONDS,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const id = requiredHeader(headers, ID, ID_DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP_DISPLAY);
    const timestamp = secondsOf(timestampText);
    const hex = value.startsWith("sha256=") ? value.slice(7) : "";
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "sha256=<64 lowercase hex>");
    const content = {
      prefix: `${id}${timestampText}`,
      payload,
      signatures: [hex],
      label: "sha256",
      format: UTF8_SECRET,
    };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  typeOf: twitchType,
  idOf: (_event, _body, headers) => {
    const id = headerValue(headers, ID);
    return id ? `twitch:${id}` : undefined;
  },
  respond: (event) =>
    typeof event.challenge === "string" ? answer(event.challenge, "text/plain; charset=utf-8") : undefined,
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = new Date(signingTime(options?.timestamp) * 1000).toISOString();
    const id = options?.id ?? globalThis.crypto.randomUUID();
    return {
      [ID]: id,
      [TIMESTAMP]: timestamp,
      [TYPE]: "notification",
      [HEADER]: `sha256=${hmac(secret, `${id}${timestamp}`, bytes).toString("hex")}`,
    };
  },
});

/**
 * Twitch EventSub's scheme: typed by subscription type (`channel.follow`), `revocation` for a revoked subscription.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { twitch } from "@tidings/core/schemes";
 *
 * type Follow = { subscription: { type: "channel.follow" }; event: { user_name: string } };
 *
 * export const receiver = createReceiver({
 *   scheme: twitch<{ "channel.follow": Follow }>(),
 *   secret: process.env.TWITCH_EVENTSUB_SECRET!,
 * }).on("channel.follow", ({ event }) => console.log("new follower:", event.user_name));
 * ```
 */
export function twitch<Events extends EventMap = EventMap>(): Scheme<Events> {
  return TWITCH as Scheme<Events>;
}
