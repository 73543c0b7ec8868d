import type { SecretFormat } from "../crypto/signed-content";
import type { EventMap } from "../event-map";
import type { Scheme } from "./scheme";
import { STANDARD, standardScheme, WHSEC } from "./standard-webhooks";

/** `whsec_<base64>` with its prefix, as `@liveblocks/node`'s `WebhookHandler` requires; the decoded bytes are the key. */
const LIVEBLOCKS_SECRET: SecretFormat = {
  keyBytes: (secret) => (secret.startsWith("whsec_") ? WHSEC.keyBytes(secret) : undefined),
  nodeKeys: /* @__PURE__ */ new Map(),
  webKeys: /* @__PURE__ */ new Map(),
};

/**
 * Liveblocks (liveblocks.io/docs/platform/webhooks): Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), a `whsec_<base64>` secret, its prefix required; event types in camelCase (`userEntered`).
 */
export const LIVEBLOCKS: Scheme = /* @__PURE__ */ standardScheme({
  name: "liveblocks",
  about: {
    sender: "Liveblocks",
    docs: "https://liveblocks.io/docs/platform/webhooks",
    headers: ["webhook-signature", "webhook-id", "webhook-timestamp"],
    signs: "HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, base64, as `v1,<base64>` (Standard Webhooks)",
    secret: "`whsec_<base64>` (the prefix required), the decoded bytes as the HMAC key",
    replay: "5 minutes, from `webhook-timestamp`",
    dedup: { key: "`webhook-id` (signed)", signed: true },
    testedAgainst: "`@liveblocks/node` 3 (`WebhookHandler.verifyRequest`): verifies ours; `standardwebhooks` signs",
  },
  names: STANDARD,
  format: LIVEBLOCKS_SECRET,
  secretKind(secret) {
    if (LIVEBLOCKS_SECRET.keyBytes(secret) === undefined) {
      throw new TypeError("A Liveblocks webhook secret is whsec_<base64>, its prefix included");
    }
    return "hmac";
  },
});

/**
 * Liveblocks' webhooks; type handlers with `WebhookEvent` from `@liveblocks/node`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { liveblocks } from "@tidings/core/schemes";
 *
 * type Events = { userEntered: { type: "userEntered"; data: { roomId: string; userId: string | null } } };
 *
 * export const receiver = createReceiver({
 *   scheme: liveblocks<Events>(),
 *   secret: process.env.LIVEBLOCKS_WEBHOOK_SECRET!,
 * }).on("userEntered", ({ data }) => console.log(data.userId, "entered", data.roomId));
 * ```
 */
export function liveblocks<Events extends EventMap = EventMap>(): Scheme<Events> {
  return LIVEBLOCKS as Scheme<Events>;
}
