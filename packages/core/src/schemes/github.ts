import type { EventMap } from "../receiver/events";
import { isHexSha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { noSignature, optionalHeader, requiredHeader } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-hub-signature-256";
const DISPLAY = "X-Hub-Signature-256";

/**
 * GitHub (docs.github.com, "Validating webhook deliveries"): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
 * body>`, keyed by the secret's UTF-8 bytes. GitHub signs no timestamp, so nothing bounds a replay in time: only dedup
 * by `X-GitHub-Delivery` stops one, for as long as the store remembers it (`doneTtlMs`). The type is `X-GitHub-Event`,
 * and `<event>.<action>` when the payload has an `action` (`issues.opened`), as `@octokit/webhooks` names them.
 */
export const GITHUB: Scheme = /* @__PURE__ */ defineScheme({
  name: "github",
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    const hex = value.startsWith("sha256=") ? value.slice(7) : "";
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "sha256=<64 lowercase hex>");
    const content = { prefix: "", payload, signatures: [hex], label: "sha256" };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf(event, headers) {
    const name = optionalHeader(headers, "x-github-event");
    const action = nonEmptyString(event.action);
    return name && action ? `${name}.${action}` : name;
  },
  idOf: (_event, _body, headers) => optionalHeader(headers, "x-github-delivery"),
  sign(payload, secret) {
    return { [HEADER]: `sha256=${hmac(secret, "", signingBytes(payload, secret)).toString("hex")}` };
  },
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
