import type { EventMap } from "../event-map";
import type { Scheme } from "./scheme";
import { SVIX, standardScheme, WHSEC, whsecSecretKind } from "./standard-webhooks";

/**
 * Clerk (clerk.com/docs/webhooks/sync-data): Standard Webhooks sent through Svix, so with `svix-id`, `svix-timestamp`
 * and `svix-signature`, which are the only headers `@clerk/backend`'s `verifyWebhook` reads; a `whsec_<base64>` secret.
 */
export const CLERK: Scheme = /* @__PURE__ */ standardScheme({
  name: "clerk",
  about: {
    sender: "Clerk",
    docs: "https://clerk.com/docs/webhooks/sync-data",
    headers: ["svix-signature", "svix-id", "svix-timestamp"],
    signs: "HMAC-SHA256 of `<svix-id>.<svix-timestamp>.<body>`, base64, as `v1,<base64>` (Standard Webhooks, via Svix)",
    secret: "`whsec_<base64>`, the decoded bytes as the HMAC key",
    replay: "5 minutes, from `svix-timestamp`",
    dedup: { key: "`svix-id` (signed)", signed: true },
    testedAgainst:
      "`@clerk/backend` 3 (`verifyWebhook`): verifies ours; `standardwebhooks`, which it verifies with, signs",
  },
  names: SVIX,
  format: WHSEC,
  secretKind: /* @__PURE__ */ whsecSecretKind("Clerk"),
});

/**
 * Clerk's webhooks; type handlers with `WebhookEvent` from `@clerk/backend`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { clerk, type EventsByType } from "@tidings/core/schemes";
 *
 * type Events = EventsByType<{ type: "user.created"; data: { id: string; email_addresses: { email_address: string }[] } }>;
 *
 * export const receiver = createReceiver({
 *   scheme: clerk<Events>(),
 *   secret: process.env.CLERK_WEBHOOK_SIGNING_SECRET!,
 * }).on("user.created", ({ data }) => console.log("new user", data.id));
 * ```
 */
export function clerk<Events extends EventMap = EventMap>(): Scheme<Events> {
  return CLERK as Scheme<Events>;
}
