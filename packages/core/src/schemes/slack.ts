import { UTF8_SECRET } from "../crypto/secret-kind";
import { WebhookVerificationError } from "../errors";
import { type DeliveryEvent, parseEvent } from "../event";
import type { EventMap } from "../event-map";
import { encoder } from "../ground/utf8";
import type { HeaderSource } from "../http/headers";
import type { ReceiveResult } from "../http/result";
import { isHexSha256 } from "../verification/formats";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { formEvent, formFields, isFormBody } from "./form-fields";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes, signingTime } from "./sign-helpers";

const HEADER = "x-slack-signature";
const DISPLAY = "X-Slack-Signature";
const TIMESTAMP_DISPLAY = "X-Slack-Request-Timestamp";

// A slash command's name: `/deploy`. Slack allows letters of any script, digits, `-` and `_`.
const COMMAND = /^\/[\p{L}\p{N}_-]{1,80}$/u;

/**
 * The Events API's inner event type for `event_callback`s (`app_mention`), else the payload's `type` (an
 * interaction's: `block_actions`, `view_submission`), else a slash command's name (`/deploy`).
 */
function slackType(event: DeliveryEvent): string | undefined {
  const inner = event.event as DeliveryEvent | null | undefined;
  if (event.type === "event_callback" && typeof inner === "object" && inner !== null) return nonEmptyString(inner.type);
  const type = nonEmptyString(event.type);
  if (type !== undefined) return type;
  const command = event.command;
  return typeof command === "string" && COMMAND.test(command) ? command : undefined;
}

/**
 * A form body (slash commands, interactivity) as its fields; interactivity's one `payload` field is JSON, and the
 * event is that JSON object. Any other body is the Events API's JSON.
 */
function parseSlack(payload: Uint8Array, headers: HeaderSource): DeliveryEvent {
  if (!isFormBody(headers)) return parseEvent(payload);
  const fields = formFields(payload);
  const interaction = fields.get("payload");
  if (interaction === undefined) return formEvent(fields);
  if (interaction.length !== 1) {
    throw new WebhookVerificationError("invalid_payload", "An interaction's form has more than one `payload` field.");
  }
  return parseEvent(encoder.encode(interaction[0] as string));
}

/**
 * Slack (api.slack.com/authentication/verifying-requests-from-slack): `X-Slack-Signature: v0=<hex HMAC-SHA256 of
 * "v0:<X-Slack-Request-Timestamp>:<body>">` keyed by the signing secret (UTF-8), 5-minute tolerance. The Events API's
 * `url_verification` handshake is answered with its `challenge` once verified; an `event_callback` is typed by its
 * inner event (`app_mention`) and deduplicated by `event_id`.
 *
 * Slash commands and interactivity are signed the same way, over their form bodies
 * (`Content-Type: application/x-www-form-urlencoded`). A command's event is its fields, typed by the command's name
 * (`/deploy`), as Bolt's `app.command("/deploy")` routes it; an interaction's event is its `payload` field's JSON,
 * typed by the interaction's `type` (`block_actions`, `view_submission`, `shortcut`), as the Bolt listener it goes
 * to depends on. Both are deduplicated by `trigger_id` (signed; Slack does not retry them, but a proxy may).
 */
export const SLACK: Scheme = /* @__PURE__ */ defineScheme({
  name: "slack",
  signatureHeader: HEADER,
  about: {
    sender: "Slack (Events API, slash commands, interactivity)",
    docs: "https://api.slack.com/authentication/verifying-requests-from-slack",
    headers: [HEADER, "x-slack-request-timestamp"],
    signs: "HMAC-SHA256 of `v0:<timestamp>:<body>`, hex, `v0=`; JSON or form bodies",
    secret: "the app's signing secret, UTF-8",
    replay: "5 minutes, from `X-Slack-Request-Timestamp`",
    dedup: { key: "`event_id` (Events API), `trigger_id` (commands, interactions); else the signature", signed: true },
    handshake: "`url_verification`: its `challenge`, once verified",
    testedAgainst:
      "`@slack/bolt` 5 (`verifySlackRequest`, `isValidSlackRequest`): Slack's documented algorithm signs, the SDK verifies ours; JSON and form bodies",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, "x-slack-request-timestamp", TIMESTAMP_DISPLAY);
    const timestamp = timestampOf(timestampText, TIMESTAMP_DISPLAY);
    const hex = value.startsWith("v0=") ? value.slice(3) : "";
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "v0=<64 lowercase hex>");
    const content = { prefix: `v0:${timestampText}:`, payload, signatures: [hex], label: "v0", format: UTF8_SECRET };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  parse: parseSlack,
  typeOf: slackType,
  idOf: (event) => nonEmptyString(event.event_id) ?? nonEmptyString(event.trigger_id),
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
