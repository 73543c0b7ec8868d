/** What the sender's HMAC covers, and the signatures it claims: `${t}.` followed by the raw body bytes. */
export interface SignedContent {
  /** The `t` digits exactly as sent, then a dot. */
  prefix: string;
  payload: Uint8Array;
  /** Well-formed lowercase hex `v1` values. */
  signatures: readonly string[];
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
