import { checkedBase64UrlBytes } from "../crypto/base64";
import { requireNodeCrypto } from "../crypto/node-crypto";
import type { EventMap } from "../event-map";
import { headerValue } from "../http/headers";
import { defineScheme } from "./define";
import { malformed, requiredHeader } from "./headers";
import { isBase64Url32, jwtDelivery, readHs256Jwt, requireClaim, signHs256Jwt } from "./jwt-hs256";
import type { Scheme } from "./scheme";
import { signingBytes, signingTime } from "./sign-helpers";

const HEADER = "upstash-signature";
const DISPLAY = "Upstash-Signature";
const MESSAGE_ID = "upstash-message-id";

/** The `body` claim: base64url of the body's SHA-256, with or without its padding. */
function bodyHashOf(claims: Record<string, unknown>): Uint8Array {
  const claim = claims.body;
  if (typeof claim !== "string" || !isBase64Url32(claim, claim.length === 44)) {
    throw malformed(DISPLAY, "the JWT's body claim is not base64url of a SHA-256");
  }
  return checkedBase64UrlBytes(claim);
}

/**
 * Upstash QStash (upstash.com/docs/qstash/howto/signature): `Upstash-Signature: <JWT, HS256>` signed with the current
 * or the next signing key (give both: `[current, next]`), its claims `iss: "Upstash"`, `sub`: the URL QStash called,
 * `body`: base64url of the body's SHA-256, `nbf`/`exp`. The body is the app's own, one type: `message`.
 */
export const QSTASH: Scheme = /* @__PURE__ */ defineScheme({
  name: "qstash",
  signatureHeader: HEADER,
  readsRequest: true,
  about: {
    sender: "Upstash QStash",
    docs: "https://upstash.com/docs/qstash/howto/signature",
    headers: [HEADER, MESSAGE_ID],
    signs: "a JWT (HS256) whose claims hold the URL called (`sub`) and the body's SHA-256 (`body`)",
    secret: "the current and next signing keys (`sig_…`), as UTF-8 HMAC keys",
    replay: "from `nbf` to `exp`, at most the tolerance (5 minutes) after `nbf`",
    dedup: { key: "`Upstash-Message-Id`", signed: false },
    testedAgainst: "`@upstash/qstash` 2 (`Receiver.verify`): both directions",
  },
  read(payload, headers, secrets, toleranceSeconds, request) {
    const token = requiredHeader(headers, HEADER, DISPLAY);
    if (request === undefined) {
      throw new TypeError("QStash signs the URL it called: pass options.request ({ method, url }), or use a Receiver");
    }
    const jwt = readHs256Jwt(token, DISPLAY);
    const delivery = jwtDelivery(jwt, payload, secrets, toleranceSeconds, DISPLAY, bodyHashOf);
    requireClaim(jwt.claims, "iss", "Upstash", "Upstash");
    requireClaim(jwt.claims, "sub", request.url, "the URL this request was sent to (behind a proxy: publicUrl)");
    return delivery;
  },
  typeOf: () => "message",
  idOf: (_event, _body, headers) => {
    const id = headerValue(headers, MESSAGE_ID);
    return id ? `qstash:${id}` : undefined;
  },
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const now = signingTime(options?.timestamp);
    if (options?.url === undefined) throw new TypeError("QStash signs the URL it calls: pass options.url");
    const body = requireNodeCrypto("sign").createHash("sha256").update(bytes).digest("base64url");
    const claims = {
      iss: "Upstash",
      sub: options.url,
      exp: now + 300,
      nbf: now,
      iat: now,
      jti: `jwt_${now}`,
      body: `${body}=`,
    };
    return { [HEADER]: signHs256Jwt(claims, secret), [MESSAGE_ID]: options.id ?? `msg_${now}` };
  },
});

/**
 * Upstash QStash's scheme: every delivery a `message` whose body is the one published.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { qstash } from "@tidings/core/schemes";
 *
 * export const receiver = createReceiver({
 *   scheme: qstash<{ message: { orderId: string } }>(),
 *   // Both keys: QStash signs with the next one once the current one is rolled.
 *   secret: [process.env.QSTASH_CURRENT_SIGNING_KEY!, process.env.QSTASH_NEXT_SIGNING_KEY!],
 *   publicUrl: "https://api.example.com", // the URL QStash calls is signed
 * }).on("message", ({ orderId }) => console.log("order", orderId));
 * ```
 */
export function qstash<Events extends EventMap = EventMap>(): Scheme<Events> {
  return QSTASH as Scheme<Events>;
}
