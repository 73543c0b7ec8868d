/**
 * What the sender's MAC covers, and the signatures it claims: a scheme's prefix followed by the raw body bytes.
 *
 * @example
 * ```ts
 * import type { SignedContent } from "@tidings/core/schemes";
 *
 * // Stripe's: `<t>.` then the body; the `v1` values of its header, hex.
 * export const stripeContent = (t: string, body: Uint8Array, v1: string[]): SignedContent => ({
 *   prefix: `${t}.`,
 *   payload: body,
 *   signatures: v1,
 *   label: "v1",
 * });
 * ```
 */
export interface SignedContent {
  /** What precedes the body in the signed bytes: the service's `t` digits and a dot, Standard Webhooks' `id.t.`… */
  prefix: string;
  payload: Uint8Array;
  /**
   * What follows the body in the signed bytes (HubSpot's timestamp), where a sender signs something after it: signed
   * without a copy of the body. `hmacMatchers` and the public-key matchers honour it; the HMAC-SHA256 used where the
   * content names no `matchers` does not, so a content with a suffix names its matchers (`hmacMatchers("sha256")`).
   */
  suffix?: string | undefined;
  /** Well-formed signatures, as written in the header: lowercase hex, or base64 with `encoding`. */
  signatures: readonly string[];
  /** How `signatures` are written. Default: hex. */
  encoding?: "base64" | undefined;
  /** How a secret becomes the HMAC key. Default: the secret's UTF-8 bytes. */
  format?: SecretFormat | undefined;
  /** Names the signatures in the mismatch message (`v1`, `sha256`…). Default `v1`. */
  label?: string | undefined;
  /** A scheme's own matchers, in place of the HMAC ones (Standard Webhooks' ed25519 keys). */
  matchers?: Matchers | undefined;
}

/**
 * A way of writing secrets that is not their UTF-8 bytes (Standard Webhooks' `whsec_<base64>`), or that a sender fixes
 * (Stripe's `whsec_…`), with the keys made from it cached per secret, one cache per format: one string may be a key in
 * two formats.
 *
 * @example
 * ```ts
 * import type { SecretFormat } from "@tidings/core/schemes";
 *
 * // A sender that hands out its HMAC key as hex (Adyen does): the key is the decoded bytes.
 * export const HEX_KEY: SecretFormat = {
 *   keyBytes: (secret) => (/^(?:[0-9a-fA-F]{2})+$/.test(secret) ? Uint8Array.from(Buffer.from(secret, "hex")) : undefined),
 *   nodeKeys: new Map(),
 *   webKeys: new Map(),
 * };
 * ```
 */
export interface SecretFormat {
  /** The HMAC key's bytes; undefined for a secret not written this way, which then verifies nothing here. */
  keyBytes(secret: string): Uint8Array | undefined;
  nodeKeys: Map<string, unknown>;
  webKeys: Map<string, Promise<CryptoKey> | null>;
}

/**
 * The first secret (in order) under which a signature matched, and that signature.
 *
 * @example
 * ```ts
 * import * as crypto from "node:crypto";
 * import { hmacMatchers, type SignatureMatch } from "@tidings/core/schemes";
 *
 * const body = new TextEncoder().encode("{}");
 * const signature = crypto.createHmac("sha1", "new").update(body).digest("hex");
 * const content = { prefix: "", payload: body, signatures: [signature] };
 * const match: SignatureMatch | undefined = hmacMatchers("sha1").node(crypto, content, ["old", "new"]);
 * console.log(match?.secretIndex); // 1
 * ```
 */
export interface SignatureMatch {
  secretIndex: number;
  signature: string;
}

export type SignatureMatcher = (
  content: SignedContent,
  secrets: readonly string[],
) => SignatureMatch | undefined | Promise<SignatureMatch | undefined>;

/**
 * A scheme's matchers for node:crypto and for Web Crypto; which one runs is chosen by what the runtime has.
 *
 * @example
 * ```ts
 * import type { Matchers } from "@tidings/core/schemes";
 *
 * // A shared token sent as is (no signature): compared with each secret, in constant time. Proves less than an HMAC.
 * const same = (a: string, b: string) => {
 *   let difference = a.length ^ b.length;
 *   for (let i = 0; i < Math.min(a.length, b.length); i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
 *   return difference === 0;
 * };
 * const match = (signatures: readonly string[], secrets: readonly string[]) => {
 *   const index = secrets.findIndex((secret) => signatures.some((token) => same(token, secret)));
 *   return index === -1 ? undefined : { secretIndex: index, signature: signatures[0] as string };
 * };
 * export const tokenMatchers: Matchers = {
 *   node: (_crypto, content, secrets) => match(content.signatures, secrets),
 *   web: async (content, secrets) => match(content.signatures, secrets),
 * };
 * ```
 */
export interface Matchers {
  node(
    crypto: typeof import("node:crypto"),
    content: SignedContent,
    secrets: readonly string[],
  ): SignatureMatch | undefined;
  web(content: SignedContent, secrets: readonly string[]): Promise<SignatureMatch | undefined>;
}
