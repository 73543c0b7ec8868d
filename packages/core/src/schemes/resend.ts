import type { EventMap } from "../event-map";
import type { Scheme } from "./scheme";
import { SVIX, standardScheme, WHSEC, whsecSecretKind } from "./standard-webhooks";

/**
 * Resend (resend.com/docs/webhooks/verify-webhooks-requests): Standard Webhooks sent through Svix, with `svix-id`,
 * `svix-timestamp` and `svix-signature`, the headers Resend's docs hand to `resend.webhooks.verify`; a `whsec_<base64>`
 * secret.
 */
export const RESEND: Scheme = /* @__PURE__ */ standardScheme({
  name: "resend",
  about: {
    sender: "Resend",
    docs: "https://resend.com/docs/webhooks/verify-webhooks-requests",
    headers: ["svix-signature", "svix-id", "svix-timestamp"],
    signs: "HMAC-SHA256 of `<svix-id>.<svix-timestamp>.<body>`, base64, as `v1,<base64>` (Standard Webhooks, via Svix)",
    secret: "`whsec_<base64>`, the decoded bytes as the HMAC key",
    replay: "5 minutes, from `svix-timestamp`",
    dedup: { key: "`svix-id` (signed)", signed: true },
    testedAgainst: "`resend` 6 (`webhooks.verify`): verifies ours; `standardwebhooks`, which it verifies with, signs",
  },
  names: SVIX,
  format: WHSEC,
  secretKind: /* @__PURE__ */ whsecSecretKind("Resend"),
});

/**
 * Resend's webhooks (`email.sent`, `email.delivered`, `email.bounced`…).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { resend } from "@tidings/core/schemes";
 *
 * type Events = { "email.bounced": { type: "email.bounced"; data: { email_id: string; to: string[] } } };
 *
 * export const receiver = createReceiver({
 *   scheme: resend<Events>(),
 *   secret: process.env.RESEND_WEBHOOK_SECRET!,
 * }).on("email.bounced", ({ data }) => console.log("bounced:", data.to.join(", ")));
 * ```
 */
export function resend<Events extends EventMap = EventMap>(): Scheme<Events> {
  return RESEND as Scheme<Events>;
}
