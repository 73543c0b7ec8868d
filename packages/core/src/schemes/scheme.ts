import type { SecretKind } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import type { HeaderSource } from "../http/headers";
import type { ReceiveResult } from "../http/result";
import type { RawPayload } from "../verification/payload";
import type { Secret } from "../verification/secrets";
import type { SignedDelivery, VerifyResult } from "../verification/signed-delivery";
import type { SignedRequest } from "../verification/signed-request";
import type { VerifyOptions } from "../verification/tolerance";

export type { SecretKind } from "../crypto/secret-kind";
export type { SignedRequest } from "../verification/signed-request";

/**
 * What a scheme's `sign` may be told: the time to sign (Unix seconds, default now) and the delivery id, where it signs one.
 *
 * @example
 * ```ts
 * import { type SchemeSignOptions, standardWebhooks } from "@tidings/core/schemes";
 *
 * // In a test: one delivery sent twice, with the same id and time, as a sender's retry is.
 * const options: SchemeSignOptions = { id: "msg_2KWPBgLl", timestamp: Math.floor(Date.now() / 1000) };
 * const body = JSON.stringify({ type: "user.created", data: { id: "u_1" } });
 *
 * const first = standardWebhooks().sign(body, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", options);
 * const retry = standardWebhooks().sign(body, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", options);
 * console.log(first["webhook-id"] === retry["webhook-id"]); // true: the receiver answers the retry as a duplicate
 * ```
 */
export interface SchemeSignOptions {
  timestamp?: number;
  /** The message id that Standard Webhooks and Svix sign (default a random `msg_…`); ignored by the others. */
  id?: string;
  /** The URL the delivery is sent to, for a scheme that signs it (Twilio, Square). */
  url?: string;
  /** The request's method, for a scheme that signs it (default `POST`). */
  method?: string;
}

/**
 * A request that is not a POST, as a scheme's `handshake` sees it.
 *
 * @example
 * ```ts
 * import { answer, type HandshakeRequest } from "@tidings/core/schemes";
 *
 * // Echo `?challenge=` back, as Dropbox asks when a webhook URL is registered.
 * export function echoChallenge({ method, url }: HandshakeRequest) {
 *   const challenge = method === "GET" && url ? new URL(url).searchParams.get("challenge") : null;
 *   return challenge === null ? undefined : answer(challenge, "text/plain; charset=utf-8");
 * }
 * ```
 */
export interface HandshakeRequest {
  method: string;
  /** The URL the sender called, rebuilt as for a signed one; undefined when the adapter said nothing of it. */
  url: string | undefined;
  headers: HeaderSource;
}

/**
 * What a scheme says about its sender, for the catalogue (`docs/senders.md` is written from it) and for anyone
 * choosing a scheme: the headers it reads, what is signed, how secrets are written, the replay window, the dedup key.
 *
 * @example
 * ```ts
 * import { stripe } from "@tidings/core/schemes";
 *
 * const { sender, replay, dedup } = stripe().about ?? {};
 * console.log(`${sender}: replays refused after ${replay}; dedup by ${dedup?.key}`);
 * ```
 */
export interface SchemeAbout {
  /** The sender as its users know it: `Twilio`, `Meta (WhatsApp, Instagram, Messenger)`. */
  sender: string;
  /** The sender's page on verifying its webhooks. */
  docs: string;
  /** The request headers the scheme reads, lower-case, the signature's first. */
  headers: readonly string[];
  /** What is signed, and how: "HMAC-SHA256 of `<t>.<body>`, hex". */
  signs: string;
  /** How the secret is written, and what the scheme makes of it: "`whsec_…`, the whole string as the HMAC key". */
  secret: string;
  /** How old a signed delivery may be: "5 minutes, from `t`", or "none: no time is signed". */
  replay: string;
  /** What deliveries of one event share for dedup, and whether the signature covers it. */
  dedup: { key: string; signed: boolean };
  /** The handshake the scheme answers itself, if any: "`url_verification`: its `challenge`, once verified". */
  handshake?: string | undefined;
  /** What the interop tests check the scheme against: "`twilio` 6: both directions". */
  testedAgainst: string;
}

/**
 * How one sender signs its webhooks: which headers carry the signature(s), the timestamp and the event's id and type,
 * what bytes are signed, and how secrets are written. The Receiver, every adapter, the stores and the queues work the
 * same with any scheme; `verify`/`verifyAsync` make it a standalone verifier, `sign` a test sender.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { github, type Scheme, stripe } from "@tidings/core/schemes";
 *
 * // One route for two senders: each sender's record says how it signs, and with which secret.
 * const senders = new Map<string, { scheme: Scheme; secret: string }>([
 *   ["stripe", { scheme: stripe(), secret: process.env.STRIPE_WEBHOOK_SECRET! }],
 *   ["github", { scheme: github(), secret: process.env.GITHUB_WEBHOOK_SECRET! }],
 * ]);
 *
 * // app.post("/webhooks/:sender", webhookMiddleware(receiver))
 * export const receiver = createReceiver({
 *   scheme: [...senders.values()].map((sender) => sender.scheme),
 *   secret: ({ params }) => {
 *     const sender = senders.get(params.sender ?? "");
 *     return sender && { ...sender, endpoint: params.sender };
 *   },
 * });
 * ```
 */
export interface Scheme<Events extends EventMap = EventMap> {
  /**
   * Never set: carries the event map a Receiver on this scheme types its handlers with (`stripe<StripeEvents>()`), so
   * `createReceiver({ scheme })` infers it.
   */
  readonly events?: Events;
  /** The scheme's name in `@tidings/core/schemes`, kebab-case: `service-signature`, `standard-webhooks`, `stripe`… */
  readonly name: string;
  /**
   * Set when `read` needs the request's method and URL (`request`): the Receiver then rebuilds the URL the sender called
   * (`publicUrl`, `trustProxy`). Costs the others nothing.
   */
  readonly readsRequest?: boolean | undefined;
  /**
   * A handshake that comes before any delivery and is not signed as one (Meta's and Dropbox's GET challenges): asked
   * for every request that is not a POST, before its body is read. An answer ends the request; undefined leaves it to
   * the next scheme, then `405 method_not_allowed`.
   */
  handshake?(request: HandshakeRequest): ReceiveResult | undefined;
  /**
   * The sender's own replay window, in seconds, where it documents one other than 5 minutes (Twitch: 10 minutes;
   * Linear's SDK: 60 s). Used when the Receiver or `verify` is given no `toleranceSeconds`; one given wins.
   */
  readonly toleranceSeconds?: number | undefined;
  /** What the scheme says about its sender; every scheme of the catalogue has it. */
  readonly about?: SchemeAbout | undefined;
  /** The lower-case name of the header that carries the signature(s). */
  readonly signatureHeader: string;
  /**
   * The cheap step, before any secret is looked up: reads the headers into what was signed and the signatures it
   * claims. Throws `WebhookVerificationError` (`missing_header`, `malformed_header`, `no_supported_signature`).
   */
  read(
    payload: Uint8Array,
    headers: HeaderSource,
    secrets: readonly string[],
    toleranceSeconds: number,
    request?: SignedRequest,
  ): SignedDelivery;
  /**
   * The event in a verified body, where it is not the body's JSON object: a form's fields (Twilio), one field of a
   * JSON envelope. Throws `WebhookVerificationError` (`invalid_payload`). Default: the body as a JSON object.
   */
  parse?(payload: Uint8Array, headers: HeaderSource): DeliveryEvent;
  /**
   * What `secret` is to this scheme: the kind of key it verifies with (`"hmac"`, or `"ed25519"` for a `whpk_` public
   * key). Throws a TypeError naming the rule when the scheme cannot verify with it: an ed25519 key given to an HMAC
   * scheme (a public key is public: an HMAC made with it proves nothing), an API key where the sender's webhook secret
   * goes, a `whsec_` that is not base64. `createReceiver` asks it of every secret, and of every secret a resolver
   * returns; a request is verified only with the secrets the scheme that reads it accepts.
   */
  secretKind(secret: string): SecretKind;
  /** The verified event's type (what handlers are registered for). */
  typeOf(event: DeliveryEvent, headers: HeaderSource): string | undefined;
  /** The id deliveries of one event share, for dedup; undefined dedups by the signature. */
  idOf(event: DeliveryEvent, body: Uint8Array, headers: HeaderSource): string | undefined;
  /**
   * A handshake the scheme answers itself once verified (Slack's `url_verification`, Discord's PING, Zoom's
   * `endpoint.url_validation`, which is answered with an HMAC made with `secret`, the one that verified it), before
   * dedup and handlers. Build the answer with `answer`.
   */
  respond?(event: DeliveryEvent, verified: { secret: string }): ReceiveResult | undefined;
  /** The headers the sender would send with this payload: for tests and the CLI. Needs node:crypto. */
  sign(payload: RawPayload, secret: string, options?: SchemeSignOptions): Record<string, string>;
  /** Verifies a delivery with node:crypto; throws `WebhookVerificationError`, with the same codes as `verify`. */
  verify(payload: unknown, headers: HeaderSource, secret: Secret, options?: VerifyOptions): VerifyResult;
  /** `verify` in every runtime: node:crypto where it exists, else Web Crypto. */
  verifyAsync(payload: unknown, headers: HeaderSource, secret: Secret, options?: VerifyOptions): Promise<VerifyResult>;
}

/**
 * An event map from a union of events told apart by their `type`: `EventsByType<Stripe.Event>`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { type EventsByType, stripe } from "@tidings/core/schemes";
 * import type Stripe from "stripe";
 *
 * export const receiver = createReceiver({
 *   scheme: stripe<EventsByType<Stripe.Event>>(),
 *   secret: process.env.STRIPE_WEBHOOK_SECRET!,
 * }).on("invoice.paid", (event) => console.log("paid:", event.data.object.id)); // a Stripe.InvoicePaidEvent
 * ```
 */
export type EventsByType<Union extends { type: string }> = { [Type in Union["type"]]: Extract<Union, { type: Type }> };

type ActionEntry<Map> = {
  [Name in keyof Map & string]: Map[Name] extends infer Event
    ? Event extends { action: infer Action extends string }
      ? { key: `${Name}.${Action}`; event: Event }
      : never
    : never;
}[keyof Map & string];

/**
 * GitHub's event map from `@octokit/webhooks-types`' `WebhookEventMap`: each event by its name (`issues`: every
 * action), and each `<name>.<action>` (`issues.opened`: that action's payload), as `@octokit/webhooks` names them.
 *
 * @example
 * ```ts
 * import type { WebhookEventMap } from "@octokit/webhooks-types";
 * import { createReceiver, type Handler } from "@tidings/core";
 * import { type GitHubEvents, github } from "@tidings/core/schemes";
 *
 * type Events = GitHubEvents<WebhookEventMap>;
 *
 * // A handler typed by the action's own payload, in a module of its own.
 * export const onMerged: Handler<Events["pull_request.closed"]> = (event) => {
 *   if (event.pull_request.merged) console.log("merged:", event.pull_request.title);
 * };
 *
 * export const receiver = createReceiver({ scheme: github<Events>(), secret: process.env.GITHUB_WEBHOOK_SECRET! }).on(
 *   "pull_request.closed",
 *   onMerged,
 * );
 * ```
 */
export type GitHubEvents<Map extends object> = { [Name in keyof Map & string]: Map[Name] & object } & {
  [Entry in ActionEntry<Map> as Entry["key"]]: Entry["event"] & object;
};
