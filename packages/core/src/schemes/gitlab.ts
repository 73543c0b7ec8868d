import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { headerValue } from "../http/headers";
import { defineScheme } from "./define";
import { MAX_TYPE_HEADER_LENGTH, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { signingBytes } from "./sign-helpers";
import { tokenDelivery, tokenSecretKind } from "./token-secret";

const HEADER = "x-gitlab-token";
const DISPLAY = "X-Gitlab-Token";
const UUID = "x-gitlab-event-uuid";
// GitLab's object kinds and actions: lower-case words joined by underscores (`merge_request`, `open`).
const WORD = /^[a-z0-9_]+$/;

/** `merge_request.open`, from the body's `object_kind` and its `object_attributes.action`, where they are words. */
function gitlabType(event: DeliveryEvent): string | undefined {
  const kind = event.object_kind;
  if (typeof kind !== "string" || !WORD.test(kind)) return undefined;
  const attributes = event.object_attributes as DeliveryEvent | null | undefined;
  const action = typeof attributes === "object" && attributes !== null ? attributes.action : undefined;
  return typeof action === "string" && WORD.test(action) ? `${kind}.${action}` : kind;
}

/**
 * GitLab (docs.gitlab.com/user/project/integrations/webhooks): the webhook's secret token, sent as it is in
 * `X-Gitlab-Token` and compared with the secret in constant time. **A token proves less than a signature**: it covers
 * no byte of the body, so anyone who sees one request (a proxy's log, a misrouted copy) can send any body with it, at
 * any time; there is no time window. Keep the URL on HTTPS and the token out of logs.
 *
 * The type is the body's `object_kind` and, where it has one, `object_attributes.action` (`merge_request.open`; a
 * handler for `merge_request` sees every action), from words only. Dedup is by `X-Gitlab-Event-UUID` (unsigned, as
 * everything here is), else by the body's SHA-256.
 */
export const GITLAB: Scheme = /* @__PURE__ */ defineScheme({
  name: "gitlab",
  about: {
    sender: "GitLab",
    docs: "https://docs.gitlab.com/user/project/integrations/webhooks/",
    headers: [HEADER, UUID],
    signs: "nothing: the secret token is sent as it is in `X-Gitlab-Token`, compared in constant time",
    secret: "the webhook's secret token; it proves less than a signature: whoever sees one request can forge any",
    replay: "none: nothing is signed",
    dedup: { key: "`X-Gitlab-Event-UUID`, else the body's SHA-256", signed: false },
    testedAgainst: "GitLab's documented token check, written out in the test (GitLab publishes no verifying SDK)",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const token = requiredHeader(headers, HEADER, DISPLAY);
    return tokenDelivery(payload, token, DISPLAY, secrets, toleranceSeconds);
  },
  secretKind: tokenSecretKind,
  typeOf: gitlabType,
  idOf(_event, _body, headers) {
    const uuid = headerValue(headers, UUID)?.trim();
    return uuid && uuid.length <= MAX_TYPE_HEADER_LENGTH ? `gitlab:${uuid}` : undefined;
  },
  sign(payload, secret, options) {
    signingBytes(payload, secret);
    tokenSecretKind(secret);
    const id = options?.id ?? globalThis.crypto.randomUUID();
    return { [HEADER]: secret, [UUID]: id };
  },
});

/**
 * GitLab's scheme: a shared token, not a signature (see `about`).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { gitlab } from "@tidings/core/schemes";
 *
 * type MergeRequest = { object_kind: "merge_request"; object_attributes: { iid: number; title: string } };
 * type Events = { merge_request: MergeRequest; "merge_request.merge": MergeRequest };
 *
 * export const receiver = createReceiver({ scheme: gitlab<Events>(), secret: process.env.GITLAB_WEBHOOK_TOKEN! }).on(
 *   "merge_request.merge",
 *   ({ object_attributes }) => console.log("merged !", object_attributes.iid, object_attributes.title),
 * );
 * ```
 */
export function gitlab<Events extends EventMap = EventMap>(): Scheme<Events> {
  return GITLAB as Scheme<Events>;
}
