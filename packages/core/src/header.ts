import { MAX_SIGNATURE_HEADER_LENGTH, MAX_SIGNATURE_HEADER_PAIRS } from "./constants";
import { WebhookVerificationError } from "./errors";

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

const TIMESTAMP = /^[0-9]{1,15}$/;
const V1_SIGNATURE = /^[0-9a-f]{64}$/;

function malformed(rule: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", `Malformed Service-Signature header: ${rule}.`);
}

/**
 * The form the service sends: `t=<digits>` then one to 31 `,v1=<64 lowercase hex>`, nothing else (32 pairs at most).
 * One regular-expression test and fixed offsets, no splitting or trimming.
 */
const CANONICAL = /^t=[0-9]{1,15}(?:,v1=[0-9a-f]{64}){1,31}$/;
const V1_LENGTH = 64;
const V1_PAIR_LENGTH = ",v1=".length + V1_LENGTH;

/**
 * The canonical header's parts, or undefined for any other header: that takes the general path below, which owns
 * every error. For the headers this accepts, both paths return the same result.
 */
function parseCanonical(header: string): ParsedSignatureHeader | undefined {
  if (!CANONICAL.test(header)) return undefined;
  const comma = header.indexOf(",");
  const signatures: string[] = [];
  for (let start = comma + 4; start < header.length; start += V1_PAIR_LENGTH) {
    signatures.push(header.slice(start, start + V1_LENGTH));
  }
  const timestampText = header.slice(2, comma);
  return { timestamp: Number(timestampText), timestampText, signatures };
}

export function parseHeaderDetailed(header: string | null | undefined): ParsedSignatureHeader {
  if (typeof header === "string") {
    const canonical = parseCanonical(header);
    if (canonical !== undefined) return canonical;
  }
  return parseGeneral(header);
}

/** Any header: pairs in any order, spaces around them, other names ignored; throws on anything unusable. */
function parseGeneral(header: string | null | undefined): ParsedSignatureHeader {
  if (typeof header !== "string" || header.trim() === "") {
    throw new WebhookVerificationError(
      "missing_header",
      "Missing Service-Signature header: the request carries no signature to verify.",
    );
  }
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw malformed(`it is longer than ${MAX_SIGNATURE_HEADER_LENGTH} characters`);
  }
  const pairs = header.split(",");
  if (pairs.length > MAX_SIGNATURE_HEADER_PAIRS) {
    throw malformed(`it has more than ${MAX_SIGNATURE_HEADER_PAIRS} pairs`);
  }
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const rawPair of pairs) {
    const pair = rawPair.trim();
    const separator = pair.indexOf("=");
    if (separator <= 0) throw malformed("expected comma-separated name=value pairs");
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    if (name === "t") {
      if (timestampText !== undefined) throw malformed("more than one t pair");
      if (!TIMESTAMP.test(value)) throw malformed("t must be Unix seconds as 1 to 15 decimal digits");
      timestampText = value;
    } else if (name === "v1" && V1_SIGNATURE.test(value)) {
      signatures.push(value);
    }
    // Other names (other schemes, future versions) and malformed v1 values never match: skip them.
  }
  if (timestampText === undefined) throw malformed("no t pair");
  if (signatures.length === 0) {
    throw new WebhookVerificationError(
      "no_supported_signature",
      "The Service-Signature header has no v1 signature (64 lowercase hex characters); this library verifies the HMAC-SHA256 v1 scheme.",
    );
  }
  return { timestamp: Number(timestampText), timestampText, signatures };
}

/** Parses a `Service-Signature` value; throws `WebhookVerificationError` on anything unusable. */
export function parseSignatureHeader(header: string): SignatureHeader {
  const { timestamp, signatures } = parseHeaderDetailed(header);
  return { timestamp, signatures };
}
