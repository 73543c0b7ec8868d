import { base64UrlAsBase64, base64UrlBytes } from "../crypto/base64";
import { constantTimeEqual } from "../crypto/constant-time";
import { matchHmacWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import { UTF8_SECRET } from "../crypto/secret-kind";
import type { Matchers, SignedContent } from "../crypto/signed-content";
import { matchHmacWithWebCrypto } from "../crypto/web-crypto";
import { WebhookVerificationError } from "../errors";
import type { SignedDelivery } from "../verification/signed-delivery";
import { malformed, noSignature } from "./headers";

const EMPTY = /* @__PURE__ */ new Uint8Array(0);
const decoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** The JSON object the bytes are (strict UTF-8), or undefined. */
function jsonObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function jsonPart(bytes: Uint8Array, display: string, what: string): Record<string, unknown> {
  const value = jsonObject(bytes);
  if (value === undefined) throw malformed(display, `the JWT's ${what} is not a JSON object`);
  return value;
}

/** An HS256 JWT as read from a header: what its HMAC covers, its signature (standard base64), its claims. */
export interface Hs256Jwt {
  signingInput: string;
  /** As sent: canonical base64url, unpadded. Node's base64 decoder reads it as it is; a match spells it standard. */
  signature: string;
  claims: Record<string, unknown>;
}

/**
 * Reads a compact JWT signed with HS256 (HMAC-SHA256, 32 bytes of signature). Any other `alg` (`none`, `HS512`,
 * `RS256`…), a `crit` header, or a part that is not canonical base64url of a JSON object is refused before any HMAC:
 * `no_supported_signature` for another algorithm, `malformed_header` for the rest.
 */
export function readHs256Jwt(token: string, display: string): Hs256Jwt {
  return readCanonical(token) ?? readHs256JwtGeneral(token, display);
}

// The header senders write, `{"alg":"HS256","typ":"JWT"}`: it passes every check of the header as it is.
const HS256_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
// A `+` loop with the length checked apart, as formats.ts does: V8 runs it in fewer instructions than a loop over
// character codes.
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Whether `text` is 32 bytes in canonical base64url: 43 characters (the last with its two unused low bits zero), and
 * one `=` after them where `padded`. Checked as text, which allocates nothing: decoding and encoding again to compare
 * costs more, in allocations.
 */
export function isBase64Url32(text: string, padded: boolean): boolean {
  if (text.length !== (padded ? 44 : 43) || (padded && text[43] !== "=")) return false;
  return "AEIMQUYcgkosw048".includes(text[42] as string) && BASE64URL.test(padded ? text.slice(0, 43) : text);
}

/** Canonical base64url (as checked on reading) as standard base64, padded: the spelling a match gives. */
function asStandard(text: string): string {
  const plus = text.includes("-") ? text.replaceAll("-", "+") : text;
  return `${plus.includes("_") ? plus.replaceAll("_", "/") : plus}=`;
}

/**
 * A JWT with the header senders write and a well-formed signature, read without decoding the header; undefined for
 * any other token, which the general path reads (it owns every error). For the tokens read here, both paths return
 * the same.
 */
function readCanonical(token: string): Hs256Jwt | undefined {
  const end = token.length - 44;
  if (token.charCodeAt(HS256_HEADER.length) !== 46 || token.charCodeAt(end) !== 46) return undefined;
  const signature = token.slice(end + 1);
  if (!token.startsWith(HS256_HEADER) || !isBase64Url32(signature, false)) return undefined;
  // A dot within the claims is no base64url: that token has more than three parts.
  const bytes = base64UrlBytes(token.slice(HS256_HEADER.length + 1, end));
  const claims = bytes && jsonObject(bytes);
  if (!claims) return undefined;
  return { signingInput: token.slice(0, end), signature, claims };
}

/** Any token: the path that owns every error. Exported for the property that the canonical path agrees with it. */
export function readHs256JwtGeneral(token: string, display: string): Hs256Jwt {
  const parts = token.split(".");
  if (parts.length !== 3) throw malformed(display, "a JWT is three base64url parts joined by dots");
  const [head, body, signature] = parts as [string, string, string];
  const headBytes = base64UrlBytes(head);
  const bodyBytes = headBytes && base64UrlBytes(body);
  if (bodyBytes === undefined || base64UrlAsBase64(signature) === undefined)
    throw malformed(display, "a JWT's parts are canonical base64url, unpadded");
  const header = jsonPart(headBytes as Uint8Array, display, "header");
  if (header.alg !== "HS256") throw noSignature(display, "JWT signed with HS256 (its alg is not HS256)");
  if ("crit" in header) throw malformed(display, "the JWT names critical extensions");
  if (header.typ !== undefined && header.typ !== "JWT") throw malformed(display, "the JWT's typ is not JWT");
  if (signature.length !== 43) throw noSignature(display, "HS256 signature of 32 bytes");
  return {
    signingInput: `${head}.${body}`,
    signature,
    claims: jsonPart(bodyBytes, display, "claims"),
  };
}

/** A time claim (NumericDate, whole seconds): undefined when absent, malformed when not 1 to 15 digits. */
function timeClaim(value: unknown, name: string, display: string): number | undefined {
  if (value === undefined) return undefined;
  // What `isTimestampText` allows of the number's text (1 to 15 digits), without writing it out.
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 999_999_999_999_999) {
    throw malformed(display, `the JWT's ${name} is not whole Unix seconds`);
  }
  return value;
}

/** What a JWT scheme's matchers check besides the HMAC: the body's SHA-256, as a claim gives it. */
export interface JwtContent extends SignedContent {
  body: Uint8Array;
  bodyHash: Uint8Array;
}

/** A JWT's delivery: its window checked (and found well-formed) before `hashOf` reads the body's hash from its claims. */
export interface JwtDelivery extends SignedDelivery {
  content: JwtContent;
}

/**
 * The delivery of an HS256 JWT whose claims carry the body's SHA-256 (`hashOf` reads it), valid from `nbf` (else
 * `iat`) for at most the tolerance, and never past `exp`. The window is checked, as every window, only once the
 * signature held; its claims are read (and refused when malformed) before the body's hash.
 */
export function jwtDelivery(
  jwt: Hs256Jwt,
  payload: Uint8Array,
  secrets: readonly string[],
  toleranceSeconds: number,
  display: string,
  hashOf: (claims: Record<string, unknown>) => Uint8Array,
): JwtDelivery {
  const { claims } = jwt;
  const from = timeClaim(claims.nbf, "nbf", display) ?? timeClaim(claims.iat, "iat", display);
  if (from === undefined) throw malformed(display, "the JWT has no iat (nor nbf)");
  const expires = timeClaim(claims.exp, "exp", display);
  if (expires !== undefined && expires <= from) throw malformed(display, "the JWT expires before it is valid");
  const content: JwtContent = {
    prefix: jwt.signingInput,
    payload: EMPTY,
    signatures: [jwt.signature],
    encoding: "base64",
    // What `defineScheme` would set: set here, the object keeps one shape.
    format: UTF8_SECRET,
    label: "HS256",
    matchers: JWT_MATCHERS,
    body: payload,
    bodyHash: hashOf(claims),
  };
  return {
    content,
    secrets,
    timestamp: from,
    toleranceSeconds: expires === undefined ? toleranceSeconds : Math.min(toleranceSeconds, expires - from),
  };
}

/** A claim that must be what the receiver expects (`iss`, `sub`): another value is a delivery meant elsewhere. */
export function requireClaim(claims: Record<string, unknown>, name: string, expected: string, what: string): void {
  if (claims[name] !== expected) {
    throw new WebhookVerificationError("signature_mismatch", `The JWT's ${name} is not ${what}.`);
  }
}

/** The JWT's HMAC-SHA256 under each secret (as the content's format reads it), then the body's hash: both must hold. */
const JWT_MATCHERS: Matchers = {
  node(crypto, content, secrets) {
    const match = matchHmacWithNodeCrypto(crypto, content, secrets);
    const { body, bodyHash } = content as JwtContent;
    if (!match || bodyHash.length !== 32) return undefined;
    if (!crypto.timingSafeEqual(crypto.createHash("sha256").update(body).digest(), bodyHash)) return undefined;
    // Spelled standard only when read (a dedup key where the delivery has no id): most deliveries never read it.
    const sent = match.signature;
    return {
      secretIndex: match.secretIndex,
      get signature() {
        return asStandard(sent);
      },
    };
  },
  async web(content, secrets) {
    // Web Crypto's path decodes with `atob`, which reads the standard alphabet only.
    const standard = { ...content, signatures: content.signatures.map(asStandard) };
    const match = await matchHmacWithWebCrypto(standard, secrets);
    const { body, bodyHash } = content as JwtContent;
    if (!match) return undefined;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body as Uint8Array<ArrayBuffer>));
    return constantTimeEqual(digest, bodyHash) ? match : undefined;
  },
};

/** Signs `claims` as an HS256 JWT keyed by the secret's UTF-8 bytes, with node:crypto, for a scheme's `sign`. */
export function signHs256Jwt(claims: Record<string, unknown>, secret: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(claims)}`;
  return `${input}.${requireNodeCrypto("sign").createHmac("sha256", secret).update(input).digest("base64url")}`;
}
