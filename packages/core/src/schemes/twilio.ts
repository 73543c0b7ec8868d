import { hmacMatchers } from "../crypto/hmac-matchers";
import type { DeliveryEvent } from "../event";
import { parseEvent } from "../event";
import type { EventMap } from "../event-map";
import { type HeaderSource, headerValue } from "../http/headers";
import { isBase64Sha1, isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { formEvent, formFields, isJsonBody, sortedForm } from "./form-fields";
import { noSignature, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmacWith, signingBytes } from "./sign-helpers";
import { requireRequest } from "./signed-request";
import { URL_MATCHERS, type UrlSignedContent } from "./url-matchers";

const HEADER = "x-twilio-signature";
const DISPLAY = "X-Twilio-Signature";
const SETTINGS = "x-twilio-webhooks-signature-settings";
const SHA1 = /* @__PURE__ */ hmacMatchers("sha1");
// `hmacMatchers`, as the form is signed as the content's suffix, which the default HMAC-SHA256 does not sign.
const SHA256 = /* @__PURE__ */ hmacMatchers("sha256");
const EMPTY = /* @__PURE__ */ new Uint8Array();
// A status, a SID: what Twilio writes them with. Anything else is left out of a type or an id.
const STATUS = /^[a-z0-9_-]{1,32}$/;
const SID = /^[A-Za-z0-9]{1,64}$/;
// Conversations', TaskRouter's and Sync's `EventType`: `onMessageAdded`, `task.created`.
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;

/** The algorithm `X-Twilio-Webhooks-Signature-Settings` names (`key=…,algorithm=HMAC_SHA256`); HMAC_SHA1 without one. */
function algorithmOf(headers: HeaderSource): string {
  for (const part of headerValue(headers, SETTINGS)?.split(",") ?? []) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === "algorithm") {
      const algorithm = part.slice(separator + 1).trim();
      if (algorithm) return algorithm.toUpperCase();
    }
  }
  return "HMAC_SHA1";
}

/**
 * The URL without its port, then with it (the scheme's default added when there is none), as `twilio`'s
 * `validateRequest` splits it, not normalised: the authority follows `<scheme>://` up to `/`, `?` or `#`, its port is
 * the first `:` after its last `@` or `]`. The URL alone where it starts with no `<scheme>://`.
 */
function spellingsOf(url: string): string[] {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  if (!authority) return [url];
  const end = authority[0].length;
  let colon = -1;
  for (let at = end - (authority[1] as string).length; at < end; at++) {
    const code = url.charCodeAt(at);
    if (code === 0x40 || code === 0x5d) colon = -1;
    else if (code === 0x3a && colon === -1) colon = at;
  }
  if (colon !== -1) return [url.slice(0, colon) + url.slice(end), url];
  return [url, `${url.slice(0, end)}${/^https:/i.test(url) ? ":443" : ":80"}${url.slice(end)}`];
}

/**
 * The spellings of the URL Twilio may have signed after `spellings` (the URL's own, the first of which is tried
 * first), in the order `twilio`'s `validateRequest` tries them: then the same of the URL as `new URL` normalises it,
 * made only when the URL as received did not match. Not tried: the SDK's last resort, the query re-encoded by Node's
 * legacy `querystring`.
 */
export function* laterSpellings(url: string, spellings: string[]): Generator<string> {
  yield* spellings.slice(1);
  let normalised: string | undefined;
  try {
    normalised = new URL(url).href;
  } catch {
    normalised = undefined;
  }
  if (normalised === undefined || normalised === url) return;
  const tried = [...spellings];
  for (const spelling of spellingsOf(normalised)) {
    if (!tried.includes(spelling)) yield spelling;
    tried.push(spelling);
  }
}

/** The spellings of the URL, in the order they are tried (see `laterSpellings`). */
export const urlSpellings = (url: string): string[] => {
  const spellings = spellingsOf(url);
  return [spellings[0] as string, ...laterSpellings(url, spellings)];
};

/** The hex SHA-256 a JSON delivery's URL names (`?bodySHA256=`); undefined for a form delivery. */
function bodySha256Of(url: string): string | undefined {
  if (!url.includes("bodySHA256")) return undefined;
  const query = url.indexOf("?");
  const end = url.indexOf("#");
  const text = query === -1 ? "" : url.slice(query + 1, end > query ? end : undefined);
  return new URLSearchParams(text).get("bodySHA256") ?? undefined;
}

/** Each field's name followed by its value, names sorted, a repeated name's distinct values sorted: what Twilio signs. */
export function twilioFormString(body: Uint8Array): string {
  return sortedForm(body, "", "", true) ?? "";
}

const word = (value: unknown) => (typeof value === "string" && STATUS.test(value) ? value : undefined);
const sid = (value: unknown) => (typeof value === "string" && SID.test(value) ? value : undefined);
const messageSid = (event: DeliveryEvent) => sid(event.MessageSid) ?? sid(event.SmsSid);
const messageStatus = (event: DeliveryEvent) => word(event.MessageStatus) ?? word(event.SmsStatus);

/** `EventType` where Twilio names one; else `message.<status>`, `call.<status>`; else `webhook`. */
function twilioType(event: DeliveryEvent): string {
  const eventType = event.EventType;
  if (typeof eventType === "string" && EVENT_TYPE.test(eventType)) return eventType;
  if (messageSid(event) !== undefined) {
    const status = messageStatus(event);
    return status ? `message.${status}` : "message";
  }
  if (sid(event.CallSid) !== undefined) {
    const status = word(event.CallStatus);
    return status ? `call.${status}` : "call";
  }
  return "webhook";
}

/**
 * Twilio (twilio.com/docs/usage/webhooks/webhooks-security): `X-Twilio-Signature: <base64 HMAC-SHA1>` keyed by the
 * account's Auth Token, of the URL Twilio called followed by each form field's name and value, names sorted (a
 * repeated name's distinct values sorted). A JSON body is not signed itself: the URL carries `bodySHA256=<hex SHA-256
 * of the body>`, and only the URL is signed. A webhook signed with a SharedKey names `algorithm=HMAC_SHA256` in
 * `X-Twilio-Webhooks-Signature-Settings`, keyed by the SharedKey secret.
 *
 * The URL is the one the Receiver rebuilds (`publicUrl`, `trustProxy`), tried with and without its port as `twilio`'s
 * `validateRequest` does. The event is the form's fields (a repeated name's values as an array), or the JSON body.
 * The type is the `EventType` field where there is one (Conversations' `onMessageAdded`, TaskRouter's `task.created`),
 * else `message.<MessageStatus or SmsStatus>` (`message.received` for an incoming message, `message.delivered` for a
 * status callback), else `call.<CallStatus>` (`call.ringing`), else `webhook`. A message is deduplicated by its
 * `MessageSid` and status, both signed; anything else by the signature. `I-Twilio-Idempotency-Token` is not signed,
 * so it is not read. Twilio signs no time: a captured delivery verifies at any time, and the store's done marks are
 * what stop it running twice.
 */
export const TWILIO: Scheme = /* @__PURE__ */ defineScheme({
  name: "twilio",
  signatureHeader: HEADER,
  readsRequest: true,
  about: {
    sender: "Twilio",
    docs: "https://www.twilio.com/docs/usage/webhooks/webhooks-security",
    headers: [HEADER, SETTINGS],
    signs:
      "HMAC-SHA1 (HMAC-SHA256 with a SharedKey), base64, of the URL + each form field's name and value, sorted by " +
      "name; for a JSON body, of the URL alone, which carries `bodySHA256=<hex SHA-256 of the body>`",
    secret: "the account's Auth Token (or the SharedKey secret), UTF-8; the URL tried with and without its port",
    replay: "none: no time is signed",
    dedup: { key: "`MessageSid` + `MessageStatus` for messages; else the signature", signed: true },
    testedAgainst: "`twilio` 6: both directions (validateRequest, validateRequestWithBody, getExpectedTwilioSignature)",
  },
  read(payload, headers, secrets, toleranceSeconds, request) {
    const { url } = requireRequest(request, "Twilio signs the URL it called");
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const algorithm = algorithmOf(headers);
    const hmac = algorithm === "HMAC_SHA1" ? SHA1 : algorithm === "HMAC_SHA256" ? SHA256 : undefined;
    if (hmac === undefined) throw noSignature(DISPLAY, `signature Tidings can check (${algorithm})`);
    const wellFormed = hmac === SHA1 ? isBase64Sha1(value) : isBase64Sha256(value);
    if (!wellFormed) throw noSignature(DISPLAY, `base64 ${algorithm}`);
    const bodySha256 = bodySha256Of(url);
    const spellings = spellingsOf(url);
    const content: UrlSignedContent = {
      prefix: spellings[0] as string,
      payload: EMPTY,
      // The form's string follows the URL; as a suffix, node:crypto's HMAC encodes it without a copy of its own.
      suffix: bodySha256 === undefined ? twilioFormString(payload) : undefined,
      signatures: [value],
      encoding: "base64",
      label: DISPLAY,
      matchers: URL_MATCHERS,
      urls: () => laterSpellings(url, spellings),
      hmac,
      body: bodySha256 === undefined ? undefined : payload,
      bodySha256,
    };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  parse: (payload, headers) => (isJsonBody(headers) ? parseEvent(payload) : formEvent(formFields(payload))),
  typeOf: twilioType,
  idOf(event) {
    const sid = messageSid(event);
    const status = messageStatus(event);
    return sid === undefined ? undefined : status === undefined ? sid : `${sid}:${status}`;
  },
  sign(payload, secret, options) {
    const url = options?.url;
    if (url === undefined) throw new TypeError("Twilio signs the URL: give sign() options.url");
    const bytes = signingBytes(payload, secret);
    const fields = bodySha256Of(url) === undefined ? twilioFormString(bytes) : "";
    return { [HEADER]: hmacWith("sha1", secret, url + fields, EMPTY).toString("base64") };
  },
});

/**
 * Twilio's scheme: give the Receiver `publicUrl` (the URL Twilio calls, up to the path), since Twilio signs the URL.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { twilio } from "@tidings/core/schemes";
 *
 * // An incoming SMS: the form's fields, typed by their status.
 * type Events = { "message.received": { MessageSid: string; From: string; To: string; Body: string } };
 *
 * export const receiver = createReceiver({
 *   scheme: twilio<Events>(),
 *   secret: process.env.TWILIO_AUTH_TOKEN!,
 *   publicUrl: "https://hooks.example.com", // what Twilio calls: the URL is signed
 * }).on("message.received", (sms) => console.log(sms.From, "says", sms.Body));
 * ```
 */
export function twilio<Events extends EventMap = EventMap>(): Scheme<Events> {
  return TWILIO as Scheme<Events>;
}
