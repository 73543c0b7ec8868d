import { WebhookVerificationError } from "../errors";
import { MAX_SIGNATURE_HEADER_LENGTH, MAX_SIGNATURE_HEADER_PAIRS } from "./constants";

/**
 * A `Service-Signature` header read, before any secret is checked: the signed time and the `v1` signatures.
 *
 * @example
 * ```ts
 * import { parseSignatureHeader, type SignatureHeader } from "@tidings/core/schemes";
 *
 * // For a log line: what a delivery's header claims, before any secret is looked up.
 * export function claimed(header: string | null): SignatureHeader | undefined {
 *   if (header === null) return undefined;
 *   try {
 *     return parseSignatureHeader(header);
 *   } catch {
 *     return undefined; // a WebhookVerificationError: malformed_header or no_supported_signature
 *   }
 * }
 * ```
 */
export interface SignatureHeader {
  /** The `t` pair as Unix seconds. */
  timestamp: number;
  /** Every well-formed `v1` value (64 lowercase hex characters), in header order. */
  signatures: string[];
}

/** The header as parsed, plus the `t` digits exactly as sent: they are what the sender signed. */
export interface ParsedSignatureHeader extends SignatureHeader {
  timestampText: string;
}

/**
 * The header as a request holds it: Node's `req.headers[name]` (a string, an array if the request repeated it, or
 * undefined) or `Headers.get(name)` (a string or null). An array is read as its values joined by commas.
 */
export type SignatureHeaderInput = string | readonly string[] | null | undefined;

const TIMESTAMP = /^\d{1,15}$/;
const V1_SIGNATURE = /^[\da-f]{64}$/;

function malformed(rule: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", `Malformed Service-Signature header: ${rule}.`);
}

/**
 * What the service sends: `t=<digits>,v1=<lowercase hex>`, nothing else. One match, no splitting or trimming; the
 * lengths are checked after it because V8 runs `+` loops in a third fewer instructions than `{1,15}` and `{64}`.
 */
const CANONICAL = /^t=(\d+),v1=([\da-f]+)$/;

export function parseHeaderDetailed(header: SignatureHeaderInput): ParsedSignatureHeader {
  const [, timestampText = "", signature = ""] = (typeof header === "string" && CANONICAL.exec(header)) || [];
  if (timestampText.length <= 15 && signature.length === 64) {
    return { timestamp: Number(timestampText), timestampText, signatures: [signature] };
  }
  // Any other header (several v1, spaces, other order or names, a broken rule) takes the general path, which owns
  // every error; for the headers matched above, both paths return the same result.
  // An array's toString joins its values with commas, which is how repeated header values combine.
  return parseGeneral(header?.toString());
}

/** Any header: pairs in any order, spaces around them, other names ignored; throws on anything unusable. */
function parseGeneral(header: string | undefined): ParsedSignatureHeader {
  if (typeof header !== "string" || header.trim() === "") {
    throw new WebhookVerificationError("missing_header", "No Service-Signature header.");
  }
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw malformed(`over ${MAX_SIGNATURE_HEADER_LENGTH} characters`);
  }
  const pairs = header.split(",");
  if (pairs.length > MAX_SIGNATURE_HEADER_PAIRS) {
    throw malformed(`over ${MAX_SIGNATURE_HEADER_PAIRS} pairs`);
  }
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const rawPair of pairs) {
    const pair = rawPair.trim();
    const separator = pair.indexOf("=");
    if (separator <= 0) throw malformed("not name=value pairs");
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    if (name === "t") {
      if (timestampText !== undefined) throw malformed("more than one t pair");
      if (!TIMESTAMP.test(value)) throw malformed("t must be 1 to 15 digits");
      timestampText = value;
    } else if (name === "v1" && V1_SIGNATURE.test(value)) {
      signatures.push(value);
    }
    // Other names (other schemes, future versions) and malformed v1 values never match: skip them.
  }
  if (timestampText === undefined) throw malformed("no t pair");
  if (signatures.length === 0) {
    throw new WebhookVerificationError("no_supported_signature", "Service-Signature has no v1 (64 lowercase hex).");
  }
  return { timestamp: Number(timestampText), timestampText, signatures };
}

/**
 * Parses a `Service-Signature` value; throws `WebhookVerificationError` on anything unusable.
 *
 * @example
 * ```ts
 * import { parseSignatureHeader } from "@tidings/core/schemes";
 *
 * const { timestamp, signatures } = parseSignatureHeader(`t=1767225600,v1=${"ab".repeat(32)}`);
 * console.log(new Date(timestamp * 1000).toISOString(), signatures.length); // 2026-01-01T00:00:00.000Z 1
 * ```
 */
export function parseSignatureHeader(header: string): SignatureHeader {
  const { timestamp, signatures } = parseHeaderDetailed(header);
  return { timestamp, signatures };
}
