import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isBase64Sha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { formEvent, formFields, sortedForm } from "./form-fields";
import { malformed, noSignature, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";
import { requireRequest } from "./signed-request";

const HEADER = "x-plivo-signature-v3";
const DISPLAY = "X-Plivo-Signature-V3";
const NONCE = "x-plivo-signature-v3-nonce";
const NONCE_DISPLAY = "X-Plivo-Signature-V3-Nonce";
const MAX_SIGNATURES = 32;
const EMPTY = /* @__PURE__ */ new Uint8Array();
const STATUS = /^[a-z0-9_-]{1,32}$/;
const UUID = /^[0-9A-Za-z-]{1,64}$/;

/**
 * What Plivo signs before `.<nonce>`, as `plivo`'s `validateV3Signature` builds it: the URL's scheme, host, port (as
 * written) and path; then, if the query has fields or the POST body does, `?` and the query's fields decoded and
 * sorted (`a=1&b=2`), a `.` when both have fields, and the body's fields sorted, each name followed by its value.
 */
export function plivoBaseString(method: string, url: string, body: Uint8Array): string {
  const match = /^([^:/?#]+):\/\/(?:[^@/?#]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/.exec(url);
  if (!match) return url;
  const [, scheme, host, path, query] = match as unknown as [string, string, string, string, string | undefined];
  const base = `${scheme}://${host}${path.trim()}`;
  const queryText = sortedForm(query ?? "", "=", "&", false) ?? "";
  const fields = method === "POST" ? sortedForm(body, "", "", false) : undefined;
  if (queryText === "" && fields === undefined) return base;
  return `${base}?${queryText}${queryText !== "" && fields !== undefined ? "." : ""}${fields ?? ""}`;
}

const status = (value: unknown) => (typeof value === "string" && STATUS.test(value) ? value : undefined);
const uuid = (value: unknown) => (typeof value === "string" && UUID.test(value) ? value : undefined);

/** `message.<Status>` (`message` for an incoming message, which has none), `call.<CallStatus>`, else `webhook`. */
function plivoType(event: DeliveryEvent): string {
  if (uuid(event.MessageUUID) !== undefined) {
    const state = status(event.Status);
    return state ? `message.${state}` : "message";
  }
  if (uuid(event.CallUUID) !== undefined) {
    const state = status(event.CallStatus);
    return state ? `call.${state}` : "call";
  }
  return "webhook";
}

/**
 * Plivo, V3 signatures (plivo.com/docs/messaging/concepts/signature-validation): `X-Plivo-Signature-V3`, one or more
 * `<base64 HMAC-SHA256>` separated by commas, keyed by the account's Auth Token (UTF-8), of the URL Plivo called (its
 * query's fields decoded and sorted) followed by the POST form's fields sorted by name, then `.` and
 * `X-Plivo-Signature-V3-Nonce`. The URL is the one the Receiver rebuilds (`publicUrl`, `trustProxy`).
 *
 * The event is the form's fields. A message is typed `message.<Status>` (`message.delivered`; `message` for an
 * incoming one) and deduplicated by `MessageUUID` and `Status`, both signed; a call is typed `call.<CallStatus>`;
 * anything else is `webhook`, deduplicated by the signature. No time is signed: the nonce makes each signature new,
 * but nothing bounds when a captured one is sent again.
 */
export const PLIVO: Scheme = /* @__PURE__ */ defineScheme({
  name: "plivo",
  signatureHeader: HEADER,
  readsRequest: true,
  about: {
    sender: "Plivo (V3 signatures)",
    docs: "https://www.plivo.com/docs/messaging/concepts/signature-validation",
    headers: [HEADER, NONCE],
    signs:
      "HMAC-SHA256 of `<URL, query sorted>?<form fields sorted, name+value>.<nonce>`, base64; several comma-separated",
    secret: "the account's Auth Token, UTF-8",
    replay: "none: no time is signed (the nonce is, but nothing bounds its age)",
    dedup: { key: "`MessageUUID` + `Status` for messages; else the signature", signed: true },
    testedAgainst: "`plivo` 4: both directions (validateV3Signature; the documented algorithm signs)",
  },
  read(payload, headers, secrets, toleranceSeconds, request) {
    const { method, url } = requireRequest(request, "Plivo signs the URL it called");
    const list = requiredHeader(headers, HEADER, DISPLAY);
    const nonce = requiredHeader(headers, NONCE, NONCE_DISPLAY);
    // One signature, nearly always: no split.
    const entries = list.includes(",") ? list.split(",") : [list];
    if (entries.length > MAX_SIGNATURES) throw malformed(DISPLAY, `more than ${MAX_SIGNATURES} signatures`);
    const signatures = entries.filter(isBase64Sha256);
    if (signatures.length === 0) throw noSignature(DISPLAY, "base64 HMAC-SHA256");
    const prefix = `${plivoBaseString(method, url, payload)}.${nonce}`;
    const content = { prefix, payload: EMPTY, signatures, encoding: "base64" as const, label: "V3" };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  parse: (payload) => formEvent(formFields(payload)),
  typeOf: plivoType,
  idOf(event) {
    const id = uuid(event.MessageUUID);
    const state = status(event.Status);
    return id === undefined ? undefined : state === undefined ? id : `${id}:${state}`;
  },
  sign(payload, secret, options) {
    const url = options?.url;
    if (url === undefined) throw new TypeError("Plivo signs the URL: give sign() options.url");
    const bytes = signingBytes(payload, secret);
    const nonce = String(globalThis.crypto.getRandomValues(new Uint32Array(2)).join(""));
    const base = plivoBaseString((options?.method ?? "POST").toUpperCase(), url, bytes);
    return { [NONCE]: nonce, [HEADER]: hmac(secret, `${base}.${nonce}`, EMPTY).toString("base64") };
  },
});

/**
 * Plivo's scheme (V3 signatures): give the Receiver `publicUrl`, since Plivo signs the URL.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { plivo } from "@tidings/core/schemes";
 *
 * type Events = { "message.delivered": { MessageUUID: string; To: string; Status: "delivered" } };
 *
 * export const receiver = createReceiver({
 *   scheme: plivo<Events>(),
 *   secret: process.env.PLIVO_AUTH_TOKEN!,
 *   publicUrl: "https://hooks.example.com",
 * }).on("message.delivered", ({ MessageUUID, To }) => console.log(MessageUUID, "delivered to", To));
 * ```
 */
export function plivo<Events extends EventMap = EventMap>(): Scheme<Events> {
  return PLIVO as Scheme<Events>;
}
