import type { EventMap } from "../event-map";
import { defineScheme } from "./define";
import { malformed, typeHeader } from "./headers";
import { HUB_HEADER, hubSignatureOf, readHubSignature, signHub } from "./hub-signature";
import type { Scheme } from "./scheme";

const EVENT_DISPLAY = "X-GitHub-Event";
// GitHub's event names and actions: lower-case words joined by underscores (`pull_request`, `ready_for_review`).
const WORD = /^[a-z0-9_]+$/;

/**
 * GitHub (docs.github.com, "Validating webhook deliveries"): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
 * body>`, keyed by the secret's UTF-8 bytes. Nothing else is signed: not `X-GitHub-Delivery`, not `X-GitHub-Event`,
 * and no timestamp.
 *
 * The type is `X-GitHub-Event`, and `<event>.<action>` when the payload has an `action` (`issues.opened`), as
 * `@octokit/webhooks` names them. An event name that is not lower-case letters, digits and underscores is refused
 * (`malformed_header`), and an action that is not is left out of the type (`issues`), so no header and no action can
 * make a type that reaches another event's or action's handlers (`issues.opened.evil`, or an event named
 * `issues.opened`).
 *
 * The dedup id is `github:<the hex signature>`: the HMAC of the body, which an attacker cannot vary, and which GitHub's
 * own redelivery repeats (same body, same secret). `X-GitHub-Delivery` is not read: a captured delivery sent again with
 * a new one is a duplicate, and no value in it can match another sender's event id. The event name is not part of the
 * id (GitHub's bodies differ by event: each holds its own object and action), so a captured delivery sent again
 * with another `X-GitHub-Event` is a duplicate too once the original was handled; before that (or after its handlers
 * failed) it runs under the type it names, once, and the original is then answered as a duplicate. Nothing bounds a
 * replay in time but the store: once `doneTtlMs` has passed since it was handled, the same capture runs again.
 */
export const GITHUB: Scheme = /* @__PURE__ */ defineScheme({
  name: "github",
  about: {
    sender: "GitHub",
    docs: "https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries",
    headers: [HUB_HEADER, "x-github-event"],
    signs: "HMAC-SHA256 of the body, hex, as `sha256=<hex>`",
    secret: "any string, its UTF-8 bytes as the HMAC key",
    replay: "none: no time is signed",
    dedup: { key: "`github:<the hex signature>` (`X-GitHub-Delivery` is not signed, and not read)", signed: true },
    testedAgainst: "`@octokit/webhooks-methods` 6: both directions",
  },
  signatureHeader: HUB_HEADER,
  read: readHubSignature,
  typeOf(event, headers) {
    const name = typeHeader(headers, "x-github-event", EVENT_DISPLAY);
    if (!WORD.test(name)) throw malformed(EVENT_DISPLAY, "an event name is lower-case letters, digits and underscores");
    const action = event.action;
    return typeof action === "string" && WORD.test(action) ? `${name}.${action}` : name;
  },
  idOf: (_event, _body, headers) => `github:${hubSignatureOf(headers)}`,
  sign: signHub,
});

/**
 * GitHub's scheme; type handlers with `@octokit/webhooks-types` (see the README).
 *
 * @example
 * ```ts
 * import type { WebhookEventMap } from "@octokit/webhooks-types";
 * import { createReceiver } from "@tidings/core";
 * import { type GitHubEvents, github } from "@tidings/core/schemes";
 *
 * export const receiver = createReceiver({
 *   scheme: github<GitHubEvents<WebhookEventMap>>(),
 *   secret: process.env.GITHUB_WEBHOOK_SECRET!,
 * })
 *   .on("issues.opened", (event) => console.log("opened:", event.issue.title))
 *   .on("push", (event) => console.log("pushed to", event.ref));
 * ```
 */
export function github<Events extends EventMap = EventMap>(): Scheme<Events> {
  return GITHUB as Scheme<Events>;
}
