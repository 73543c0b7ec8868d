import { base64ToBytes, bytesToBase64 } from "../crypto/base64";
import { remember } from "../crypto/key-cache";
import type { SecretKind } from "../crypto/secret-kind";
import { type ExpectedToken, expectedToken, sameToken } from "../crypto/token-matchers";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { encoder } from "../ground/utf8";
import { defineScheme } from "./define";
import { malformed, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { signingBytes } from "./sign-helpers";
import { tokenDelivery, tokenSecretKind } from "./token-secret";

const HEADER = "authorization";
const DISPLAY = "Authorization";
// `Basic <base64>`, the scheme's name in any case (RFC 7617); the credentials' base64 checked when decoded.
const BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;
const decoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** The `user:password` a Basic header carries; malformed when it is not Basic, base64, UTF-8 and `user:password`. */
export function credentials(value: string): string {
  const [, base64 = ""] = BASIC.exec(value) ?? [];
  let text: string | undefined;
  try {
    text = base64 ? decoder.decode(base64ToBytes(base64)) : undefined;
  } catch {
    text = undefined;
  }
  if (text === undefined || !text.includes(":")) {
    throw malformed(DISPLAY, "Basic credentials are `Basic <base64 of user:password>`");
  }
  return text;
}

/** The header a secret's sender writes (`Basic ` and its padded base64), and the credentials `credentials` reads in it. */
interface SentHeader {
  header: ExpectedToken;
  credentials: string;
}

// Each secret's header, made once; `null`: its header is malformed (no `:` in it). The last one is found without a lookup.
const sentHeaders = /* @__PURE__ */ new Map<string, SentHeader | null>();
let last: { secret: string; sent: SentHeader | null } | undefined;

function sentHeaderOf(secret: string): SentHeader | null {
  let sent = sentHeaders.get(secret);
  if (sent === undefined) {
    const bytes = encoder.encode(secret);
    const text = decoder.decode(bytes);
    const header = encoder.encode(`Basic ${bytesToBase64(bytes)}`);
    sent = remember(
      sentHeaders,
      secret,
      text.includes(":") ? { header: expectedToken(header), credentials: text } : null,
    );
  }
  last = { secret, sent };
  return sent;
}

/**
 * `credentials(value)` where the header is one a secret's sender writes: compared with each secret's, in constant time,
 * rather than decoded. Undefined for any other header, which `credentials` reads (and refuses) instead.
 */
export function sentCredentials(value: string, secrets: readonly string[]): string | undefined {
  for (let i = 0; i < secrets.length; i++) {
    const secret = secrets[i] as string;
    const sent = last?.secret === secret ? last.sent : sentHeaderOf(secret);
    if (sent !== null && sameToken(value, sent.header)) return sent.credentials;
  }
  return undefined;
}

/** Postmark's secret is the credentials written in the webhook's URL: `user:password`. */
function postmarkSecretKind(secret: string): SecretKind {
  if (!secret.includes(":")) throw new TypeError("A Postmark secret is the URL's Basic credentials, `user:password`");
  return tokenSecretKind(secret);
}

/** The body's `RecordType` (`Bounce`, `Delivery`, `Open`…), or `Inbound` for an inbound message, which has none. */
function postmarkType(event: DeliveryEvent): string | undefined {
  return nonEmptyString(event.RecordType) ?? (event.MessageStream === "inbound" ? "Inbound" : undefined);
}

/**
 * Postmark (postmarkapp.com/developer/webhooks/webhooks-overview): HTTP Basic credentials written into the webhook's
 * URL (`https://user:password@…`), sent as `Authorization: Basic …` and compared with the secret `user:password` in
 * constant time. **Credentials prove less than a signature**: they cover no byte of the body, so anyone who sees one
 * request can send any body with them, at any time; there is no time window. Keep the URL on HTTPS.
 *
 * The type is the body's `RecordType` (`Bounce`, `Delivery`, `Open`, `Click`, `SpamComplaint`, `SubscriptionChange`),
 * or `Inbound` for an inbound message. Dedup is by the body's SHA-256, which Postmark's retries of one body repeat.
 */
export const POSTMARK: Scheme = /* @__PURE__ */ defineScheme({
  name: "postmark",
  about: {
    sender: "Postmark",
    docs: "https://postmarkapp.com/developer/webhooks/webhooks-overview",
    headers: [HEADER],
    signs: "nothing: HTTP Basic credentials on the webhook URL, compared in constant time",
    secret:
      "`user:password`, as written in the webhook URL; it proves less than a signature: whoever sees one request can forge any",
    replay: "none: nothing is signed",
    dedup: { key: "the body's SHA-256", signed: false },
    testedAgainst: "HTTP Basic credentials (RFC 7617) as Postmark documents them, written out in the test",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const token = sentCredentials(value, secrets) ?? credentials(value);
    return tokenDelivery(payload, token, DISPLAY, secrets, toleranceSeconds);
  },
  secretKind: postmarkSecretKind,
  typeOf: postmarkType,
  idOf: () => undefined,
  sign(payload, secret) {
    signingBytes(payload, secret);
    postmarkSecretKind(secret);
    return { [HEADER]: `Basic ${bytesToBase64(encoder.encode(secret))}` };
  },
});

/**
 * Postmark's scheme: Basic credentials, not a signature (see `about`).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { postmark } from "@tidings/core/schemes";
 *
 * type Events = { Bounce: { RecordType: "Bounce"; ID: number; Email: string; Type: string } };
 *
 * // The webhook URL in Postmark: https://hooks:<password>@example.com/webhooks/postmark
 * export const receiver = createReceiver({
 *   scheme: postmark<Events>(),
 *   secret: `hooks:${process.env.POSTMARK_WEBHOOK_PASSWORD!}`,
 * }).on("Bounce", (bounce) => console.log("bounced:", bounce.Email, bounce.Type));
 * ```
 */
export function postmark<Events extends EventMap = EventMap>(): Scheme<Events> {
  return POSTMARK as Scheme<Events>;
}
