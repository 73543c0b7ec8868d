import type { EventMap } from "../event-map";
import { isHexSha256 } from "../verification/formats";
import { answer } from "./answer";
import { echoable, getQuery } from "./challenge";
import { defineScheme } from "./define";
import { noSignature, requiredHeader } from "./headers";
import type { Scheme } from "./scheme";
import { hmac, signingBytes } from "./sign-helpers";

const HEADER = "x-dropbox-signature";
const DISPLAY = "X-Dropbox-Signature";

/**
 * Dropbox (dropbox.com/developers/reference/webhooks), POST notifications: `X-Dropbox-Signature: <hex HMAC-SHA256 of
 * the body>`, keyed by the app secret (UTF-8), no time signed. The GET verification request (`?challenge=<token>`)
 * is answered with the token, as text/plain, when the route takes GET as well as POST.
 *
 * A notification only says which accounts changed (`{ "list_folder": { "accounts": [...] } }`): the app then fetches
 * the changes with its cursor. It carries no id, and the next change of the same accounts is the same body, so no
 * delivery is a duplicate of another: each runs its handlers (a key of the body would drop every later change's
 * notification until `doneTtlMs` passed). A replayed notification makes the app fetch with its cursor again, which
 * finds nothing new. The type is `list_folder`, or `notification` for a body without it.
 */
export const DROPBOX: Scheme = /* @__PURE__ */ defineScheme({
  name: "dropbox",
  about: {
    sender: "Dropbox",
    docs: "https://www.dropbox.com/developers/reference/webhooks",
    headers: [HEADER],
    signs: "HMAC-SHA256 of the body, hex",
    secret: "the app secret, its UTF-8 bytes as the HMAC key",
    replay: "none: no time is signed (a notification only prompts a fetch of changes)",
    dedup: {
      key: "none: a notification has no id, and the next change of the same accounts repeats its body",
      signed: false,
    },
    handshake: "GET `?challenge=`: echoed as text/plain (the route must take GET too)",
    testedAgainst: "Dropbox's documented algorithm (its SDK has no webhook code): both directions",
  },
  signatureHeader: HEADER,
  read(payload, headers, secrets, toleranceSeconds) {
    const value = requiredHeader(headers, HEADER, DISPLAY);
    if (!isHexSha256(value)) throw noSignature(DISPLAY, "64 lowercase hex");
    const content = { prefix: "", payload, signatures: [value], label: DISPLAY };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (event) =>
    typeof event.list_folder === "object" && event.list_folder !== null ? "list_folder" : "notification",
  idOf: () => `dropbox:${globalThis.crypto.randomUUID()}`,
  handshake(request) {
    const challenge = getQuery(request)?.get("challenge");
    return echoable(challenge) ? answer(challenge, "text/plain; charset=utf-8") : undefined;
  },
  sign(payload, secret) {
    return { [HEADER]: hmac(secret, "", signingBytes(payload, secret)).toString("hex") };
  },
});

/**
 * Dropbox's webhooks, POST notifications.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { dropbox } from "@tidings/core/schemes";
 *
 * type Events = { list_folder: { list_folder: { accounts: string[] } } };
 *
 * export const receiver = createReceiver({ scheme: dropbox<Events>(), secret: process.env.DROPBOX_APP_SECRET! }).on(
 *   "list_folder",
 *   ({ list_folder }) => {
 *     for (const account of list_folder.accounts) console.log("fetch the changes of", account);
 *   },
 * );
 * ```
 */
export function dropbox<Events extends EventMap = EventMap>(): Scheme<Events> {
  return DROPBOX as Scheme<Events>;
}
