import { base64UrlAsBase64, base64UrlBytes } from "../crypto/base64";
import { constantTimeEqual } from "../crypto/constant-time";
import { matchHmacWithNodeCrypto, requireNodeCrypto } from "../crypto/node-crypto";
import type { Matchers, SignedContent } from "../crypto/signed-content";
import { matchHmacWithWebCrypto } from "../crypto/web-crypto";
import { WebhookVerificationError } from "../errors";
import { malformed, noSignature } from "./headers";

const EMPTY = /* @__PURE__ */ new Uint8Array(0);
const decoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

function jsonPart(bytes: Uint8Array, display: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformed(display, `the JWT's ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** An HS256 JWT as read from a header: what its HMAC covers, its signature (standard base64), its claims. */
export interface Hs256Jwt {
  signingInput: string;
  signature: string;
  claims: Record<string, unknown>;
}

/**
 * Reads a compact JWT signed with HS256 (HMAC-SHA256, 32 bytes of signature). Any other `alg` (`none`, `HS512`,
 * `RS256`…), a `crit` header, or a part that is not canonical base64url of a JSON object is refused before any HMAC:
 * `no_supported_signature` for another algorithm, `malformed_header` for the rest.
 */
export function readHs256Jwt(token: string, display: string): Hs256Jwt {
  const parts = token.split(".");
  if (parts.length !== 3) throw malformed(display, "a JWT is three base64url parts joined by dots");
  const [head, body, signature] = parts as [string, string, string];
  const headBytes = base64UrlBytes(head);
  const bodyBytes = headBytes && base64UrlBytes(body);
  const signatureText = bodyBytes && base64UrlAsBase64(signature);
  if (signatureText === undefined) throw malformed(display, "a JWT's parts are canonical base64url, unpadded");
  const header = jsonPart(headBytes as Uint8Array, display, "header");
  if (header.alg !== "HS256") throw noSignature(display, "JWT signed with HS256 (its alg is not HS256)");
  if ("crit" in header) throw malformed(display, "the JWT names critical extensions");
  if (header.typ !== undefined && header.typ !== "JWT") throw malformed(display, "the JWT's typ is not JWT");
  if (signature.length !== 43) throw noSignature(display, "HS256 signature of 32 bytes");
  return {
    signingInput: `${head}.${body}`,
    signature: signatureText,
    claims: jsonPart(bodyBytes as Uint8Array, display, "claims"),
  };
}

/** A time claim (NumericDate, whole seconds): undefined when absent, malformed when not 1 to 15 digits. */
export function timeClaim(claims: Record<string, unknown>, name: string, display: string): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  // What `isTimestampText` allows of the number's text (1 to 15 digits), without writing it out.
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 999_999_999_999_999) {
    throw malformed(display, `the JWT's ${name} is not whole Unix seconds`);
  }
  return value;
}

/**
 * The window a JWT is valid in, as a signed time and a tolerance: from `nbf` (else `iat`), for at most the tolerance,
 * and never past `exp`. Checked, as every window, only once the signature held.
 */
export function jwtWindow(claims: Record<string, unknown>, toleranceSeconds: number, display: string) {
  const from = timeClaim(claims, "nbf", display) ?? timeClaim(claims, "iat", display);
  if (from === undefined) throw malformed(display, "the JWT has no iat (nor nbf)");
  const expires = timeClaim(claims, "exp", display);
  if (expires !== undefined && expires <= from) throw malformed(display, "the JWT expires before it is valid");
  return {
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

/** What a JWT scheme's matchers check besides the HMAC: the body's SHA-256, as a claim gives it. */
export interface JwtContent extends SignedContent {
  body: Uint8Array;
  bodyHash: Uint8Array;
}

/** The signed content of an HS256 JWT whose claims carry the body's SHA-256. */
export function jwtContent(jwt: Hs256Jwt, body: Uint8Array, bodyHash: Uint8Array): JwtContent {
  return {
    prefix: jwt.signingInput,
    payload: EMPTY,
    signatures: [jwt.signature],
    encoding: "base64",
    label: "HS256",
    matchers: JWT_MATCHERS,
    body,
    bodyHash,
  };
}

/** The JWT's HMAC-SHA256 under each secret (as the content's format reads it), then the body's hash: both must hold. */
const JWT_MATCHERS: Matchers = {
  node(crypto, content, secrets) {
    const match = matchHmacWithNodeCrypto(crypto, content, secrets);
    const { body, bodyHash } = content as JwtContent;
    if (!match || bodyHash.length !== 32) return undefined;
    return crypto.timingSafeEqual(crypto.createHash("sha256").update(body).digest(), bodyHash) ? match : undefined;
  },
  async web(content, secrets) {
    const match = await matchHmacWithWebCrypto(content, secrets);
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
