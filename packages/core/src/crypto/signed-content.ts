/** What the sender's HMAC covers, and the signatures it claims: `${t}.` followed by the raw body bytes. */
export interface SignedContent {
  /** The `t` digits exactly as sent, then a dot. */
  prefix: string;
  payload: Uint8Array;
  /** Well-formed lowercase hex `v1` values. */
  signatures: readonly string[];
}

/** Finds the index of the first secret under which some signature matches, or -1. */
export type SignatureMatcher = (content: SignedContent, secrets: readonly string[]) => number | Promise<number>;
