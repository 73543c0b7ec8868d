import { UTF8_SECRET } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import type { ReceiveResult } from "../http/result";
import { isHexSha256 } from "../verification/formats";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "x-slack-signature";
const DISPLAY = "X-Slack-Signature";
const TIMESTAMP_DISPLAY = "X-Slack-Request-Timestamp";

/** The Events API's inner event type for `event_callback`s (`app_mention`), else the payload's `type`. */
function slackType(event: DeliveryEvent): string | undefined {
  const inner = event.event as DeliveryEvent | null | undefined;
  return event.type === "event_callback" && typeof inner === "object" && inner !== null
    ? nonEmptyString(inner.type)
    : nonEmptyString(event.type);
}

/**
 * Slack (api.slack.com/authentication/verifying-requests-from-slack): `X-Slack-Signature: v0=<hex HMAC-SHA256 of
 * "v0:<X-Slack-Request-Timestamp>:<body>">` keyed by the signing secret (UTF-8), 5-minute tolerance. The Events API's
 * `url_verification` handshake is answered with its `challenge` once verified; an `event_callback` is typed by its
 * inner event (`app_mention`) and deduplicated by `event_id`. Bodies must be JSON (the Events API), not the form
 * bodies of slash commands and interactivity.
 */
export const SLACK: Scheme = /* @__PURE__ */ defineScheme({
  name: "slack",
  about: {
    sender: "Slack (Events API)",
    docs: "https://api.slack.com/authentication/verifying-requests-from-slack",
    headers: [HEADER, "x-slack-request-timestamp"],
    signs: "HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<body>`, hex, as `v0=<hex>`",
    secret: "the app's signing secret, its UTF-8 bytes as the HMAC key",
    replay: "5 minutes, from `X-Slack-Request-Timestamp`",
    dedup: { key: "the payload's `event_id` (signed)", signed: true },
    handshake: "`url_verification`: its `challenge`, once verified",
    testedAgainst: "`@slack/bolt` 5 (`verifySlackRequest`): Slack's documented algorithm signs, the SDK verifies ours",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, "x-slack-request-timestamp", TIMESTAMP_DISPLAY);
    const timestamp = timestampOf(timestampText, TIMESTAMP_DISPLAY);
    const hex = value.startsWith("v0=") ? value.slice(3) : "";
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "v0=<64 lowercase hex>");
    const content = { prefix: `v0:${timestampText}:`, payload, signatures: [hex], label: "v0", format: UTF8_SECRET };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  typeOf: slackType,
  idOf: (event) => nonEmptyString(event.event_id),
  respond(event): ReceiveResult | undefined {
    if (event.type !== "url_verification" || typeof event.challenge !== "string") return undefined;
    return answer(JSON.stringify({ challenge: event.challenge }));
  },
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = signingTime(options?.timestamp);
    return {
      "x-slack-request-timestamp": String(timestamp),
      [HEADER]: `v0=${hmac(secret, `v0:${timestamp}:`, bytes).toString("hex")}`,
    };
  },
});

/**
 * Slack's Events API scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { slack } from "@tidings/core/schemes";
 *
 * // An event_callback, typed by its inner event's type; url_verification is answered by the scheme.
 * type Events = {
 *   app_mention: { type: "event_callback"; event: { type: "app_mention"; user: string; text: string } };
 * };
 *
 * export const receiver = createReceiver({
 *   scheme: slack<Events>(),
 *   secret: process.env.SLACK_SIGNING_SECRET!,
 * }).on("app_mention", ({ event }) => console.log(event.user, "said", event.text));
 * ```
 */
export function slack<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SLACK as Scheme<Events>;
}
