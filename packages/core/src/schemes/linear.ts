import { UTF8_SECRET } from "../crypto/secret-kind";
import { WebhookVerificationError } from "../errors";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { isHexSha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "linear-signature";
const DISPLAY = "Linear-Signature";
// Linear's resource types (`Issue`, `IssueSLA`) and actions (`create`, `update`, `remove`): letters and digits.
const WORD = /^[A-Za-z0-9_]+$/;
const decoder = /* @__PURE__ */ new TextDecoder();

function refuse(rule: string): WebhookVerificationError {
  return new WebhookVerificationError("invalid_payload", `A Linear body ${rule}.`);
}

/**
 * The signed time: the body's `webhookTimestamp` (Unix milliseconds), in seconds. Linear signs no time in a header, so
 * a body without one is refused, as Linear's SDK refuses it.
 */
function webhookSeconds(payload: Uint8Array): number {
  let event: unknown;
  try {
    event = JSON.parse(decoder.decode(payload));
  } catch {
    throw refuse("is JSON");
  }
  const milliseconds = typeof event === "object" && event !== null ? (event as DeliveryEvent).webhookTimestamp : 0;
  if (typeof milliseconds !== "number" || !Number.isFinite(milliseconds) || milliseconds < 0) {
    throw refuse("carries `webhookTimestamp`, Unix milliseconds");
  }
  return Math.floor(milliseconds / 1000);
}

/** `Issue.create`, as `@linear/sdk`'s handlers for `Issue` see every action of it (the Receiver's families do too). */
function linearType(event: DeliveryEvent): string | undefined {
  const { type, action } = event;
  if (typeof type !== "string" || !WORD.test(type)) return undefined;
  return typeof action === "string" && WORD.test(action) ? `${type}.${action}` : type;
}

/**
 * Linear (linear.app/developers/webhooks): `Linear-Signature: <hex HMAC-SHA256 of the body>`, keyed by the webhook's
 * signing secret (UTF-8); the time is the body's `webhookTimestamp` (Unix milliseconds), which the signature covers.
 * The type is `<type>.<action>` (`Issue.create`; a handler for `Issue` sees every action). Linear's bodies carry no
 * event id that survives a retry (`Linear-Delivery` is an unsigned header, and each retry is signed anew with a new
 * `webhookTimestamp`): dedup is by the signature, so a captured delivery replayed within the window is a duplicate,
 * and a retry Linear sends runs again; key your effects by `data.id` and `updatedAt`.
 */
export const LINEAR: Scheme = /* @__PURE__ */ defineScheme({
  name: "linear",
  toleranceSeconds: 60,
  about: {
    sender: "Linear",
    docs: "https://linear.app/developers/webhooks",
    headers: [HEADER],
    signs: "HMAC-SHA256 of the body, hex; the time is the body's `webhookTimestamp` (ms)",
    secret: "the webhook's signing secret, its UTF-8 bytes",
    replay: "1 minute from `webhookTimestamp`, as Linear's SDK checks; a `toleranceSeconds` given to the Receiver wins",
    dedup: { key: "the signature (no event id survives a retry)", signed: true },
    testedAgainst: "`@linear/sdk` 98 (`LinearWebhookClient.verify`, `parseData`): both directions",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const hex = requiredHeader(headers, HEADER, DISPLAY);
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "HMAC-SHA256 (64 lowercase hex)");
    const content = { prefix: "", payload, signatures: [hex], label: "sha256", format: UTF8_SECRET };
    return { content, secrets, timestamp: webhookSeconds(payload), toleranceSeconds };
  },
  typeOf: linearType,
  idOf: () => undefined,
  /** The time is the body's own `webhookTimestamp`: `options.timestamp` is not read. */
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("hex") };
  },
});

/**
 * Linear's scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { linear } from "@tidings/core/schemes";
 *
 * type Issue = { type: "Issue"; action: string; data: { id: string; title: string } };
 * type Events = { Issue: Issue; "Issue.create": Issue };
 *
 * export const receiver = createReceiver({ scheme: linear<Events>(), secret: process.env.LINEAR_WEBHOOK_SECRET! })
 *   .on("Issue.create", ({ data }) => console.log("new issue:", data.title))
 *   .on("Issue", ({ action, data }) => console.log(action, data.id)); // every action
 * ```
 */
export function linear<Events extends EventMap = EventMap>(): Scheme<Events> {
  return LINEAR as Scheme<Events>;
}
