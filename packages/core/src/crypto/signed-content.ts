/** What the sender's MAC covers, and the signatures it claims: a scheme's prefix followed by the raw body bytes. */
export interface SignedContent {
  /** What precedes the body in the signed bytes: the service's `t` digits and a dot, Standard Webhooks' `id.t.`… */
  prefix: string;
  payload: Uint8Array;
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
 */
export interface SecretFormat {
  /** The HMAC key's bytes; undefined for a secret not written this way, which then verifies nothing here. */
  keyBytes(secret: string): Uint8Array | undefined;
  nodeKeys: Map<string, unknown>;
  webKeys: Map<string, Promise<CryptoKey> | null>;
}

/** The first secret (in order) under which a signature matched, and that signature. */
export interface SignatureMatch {
  secretIndex: number;
  signature: string;
}

export type SignatureMatcher = (
  content: SignedContent,
  secrets: readonly string[],
) => SignatureMatch | undefined | Promise<SignatureMatch | undefined>;

/** A scheme's matchers for node:crypto and for Web Crypto; which one runs is chosen by what the runtime has. */
export interface Matchers {
  node(
    crypto: typeof import("node:crypto"),
    content: SignedContent,
    secrets: readonly string[],
  ): SignatureMatch | undefined;
  web(content: SignedContent, secrets: readonly string[]): Promise<SignatureMatch | undefined>;
}
