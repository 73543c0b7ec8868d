import type { EventMap } from "../event-map";
import { isHexSha256 } from "../verification/formats";
import { defineScheme } from "./define";
import { malformed, noSignature, requiredHeader, typeHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "sentry-hook-signature";
const DISPLAY = "Sentry-Hook-Signature";
const RESOURCE_DISPLAY = "Sentry-Hook-Resource";
// Sentry's resources and actions: lower-case words joined by underscores (`event_alert`, `created`).
const WORD = /^[a-z0-9_]+$/;

/**
 * Sentry's integration platform (docs.sentry.io/integrations/integration-platform/webhooks): `Sentry-Hook-Signature:
 * <hex HMAC-SHA256 of the body>`, keyed by the integration's client secret (UTF-8). `Sentry-Hook-Timestamp` and
 * `Request-ID` are not signed, so no time window applies and dedup is by the signature.
 *
 * The type is `<Sentry-Hook-Resource>.<action>` (`issue.created`; a handler for `issue` sees every action), as
 * GitHub's is built: a resource that is not lower-case letters, digits and underscores is refused (`malformed_header`)
 * and such an action left out, so no header can make a type that reaches another resource's handlers. The resource
 * header is unsigned: a captured body sent again under another resource is a duplicate once the original was handled.
 */
export const SENTRY: Scheme = /* @__PURE__ */ defineScheme({
  name: "sentry",
  about: {
    sender: "Sentry (integration platform)",
    docs: "https://docs.sentry.io/integrations/integration-platform/webhooks/",
    headers: [HEADER, "sentry-hook-resource"],
    signs: "HMAC-SHA256 of the body, hex",
    secret: "the integration's client secret, its UTF-8 bytes",
    replay: "none: `Sentry-Hook-Timestamp` is not signed; a capture is a duplicate until the store forgets it",
    dedup: { key: "the signature (`Request-ID` is not signed)", signed: true },
    testedAgainst: "Sentry's documented algorithm, written out in the test (Sentry publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const hex = requiredHeader(headers, HEADER, DISPLAY);
    if (!isHexSha256(hex)) throw noSignature(DISPLAY, "HMAC-SHA256 (64 lowercase hex)");
    const content = { prefix: "", payload, signatures: [hex], label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf(event, headers) {
    const resource = typeHeader(headers, "sentry-hook-resource", RESOURCE_DISPLAY);
    if (!WORD.test(resource)) {
      throw malformed(RESOURCE_DISPLAY, "a resource is lower-case letters, digits and underscores");
    }
    const action = event.action;
    return typeof action === "string" && WORD.test(action) ? `${resource}.${action}` : resource;
  },
  idOf: () => undefined,
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("hex") };
  },
});

/**
 * Sentry's integration-platform scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { sentry } from "@tidings/core/schemes";
 *
 * type Issue = { action: string; data: { issue: { id: string; title: string } } };
 * type Events = { issue: Issue; "issue.created": Issue };
 *
 * export const receiver = createReceiver({ scheme: sentry<Events>(), secret: process.env.SENTRY_CLIENT_SECRET! })
 *   .on("issue.created", ({ data }) => console.log("new issue:", data.issue.title))
 *   .on("issue", ({ action, data }) => console.log(action, data.issue.id)); // every action
 * ```
 */
export function sentry<Events extends EventMap = EventMap>(): Scheme<Events> {
  return SENTRY as Scheme<Events>;
}
