import { MAX_SIGNATURE_HEADER_PAIRS } from "../verification/constants";
import { isHexSha256, isTimestampText } from "../verification/formats";
import { malformed, noSignature } from "./headers";

/** Printable ASCII other than the space: never trimmed. */
const isVisibleAscii = (code: number) => code > 32 && code < 127;

/** How a sender writes a header of a time and HMAC-SHA256 signatures: `t=<digits>,v1=<hex>` and its cousins. */
export interface PairNames {
  /** Between pairs: `,` (Mux, Calendly, WorkOS) or `;` (Paddle). Spaces around a pair are ignored. */
  separator: string;
  /** The time's name: `t`, or Paddle's `ts`. */
  time: string;
  /** The signatures' name: `v1`, or Paddle's `h1`. */
  signature: string;
  /** The header as the sender spells it, for messages. */
  display: string;
}

/** The signed time exactly as sent (its digits are what the sender signed) and every well-formed signature. */
export interface TimedSignatures {
  timestampText: string;
  /** The time's digits as a number. */
  timestamp: number;
  signatures: string[];
}

/**
 * A reader of the header `names` describes. The header as senders write it (`t=<digits>,v1=<hex>`, one space after the
 * separator allowed) is one regular-expression match; any other shape takes `readTimedPairs`, which owns every error
 * and returns the same result for the shape matched here.
 */
export function timedPairsReader(names: PairNames): (value: string) => TimedSignatures {
  const separator = names.separator.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&");
  const canonical = new RegExp(`^${names.time}=(\\d+)${separator} ?${names.signature}=([\\da-f]+)$`);
  return (value) => {
    const [, timestampText = "", signature = ""] = canonical.exec(value) || [];
    if (timestampText.length <= 15 && signature.length === 64) {
      return { timestampText, timestamp: Number(timestampText), signatures: [signature] };
    }
    return readTimedPairs(value, names);
  };
}

/**
 * Reads `<time>=<digits>` and one or more `<signature>=<64 lowercase hex>` pairs, in any order. Other names (other
 * versions) and malformed signatures are skipped, as the senders' libraries skip them; a missing, repeated or
 * malformed time is `malformed_header`, no usable signature `no_supported_signature`.
 */
export function readTimedPairs(value: string, names: PairNames): TimedSignatures {
  const { display, time } = names;
  const pairs = value.split(names.separator);
  if (pairs.length > MAX_SIGNATURE_HEADER_PAIRS) throw malformed(display, `over ${MAX_SIGNATURE_HEADER_PAIRS} pairs`);
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const written = pairs[i] as string;
    // `trim` only where an end might need it, as `requiredValue` does: senders write one space at most.
    const pair =
      isVisibleAscii(written.charCodeAt(0)) && isVisibleAscii(written.charCodeAt(written.length - 1))
        ? written
        : written.trim();
    const separator = pair.indexOf("=");
    if (separator <= 0) throw malformed(display, "not name=value pairs");
    const name = pair.slice(0, separator);
    const text = pair.slice(separator + 1);
    if (name === time) {
      if (timestampText !== undefined) throw malformed(display, `more than one ${time} pair`);
      if (!isTimestampText(text)) throw malformed(display, `${time} must be 1 to 15 digits`);
      timestampText = text;
    } else if (name === names.signature && isHexSha256(text)) {
      signatures.push(text);
    }
  }
  if (timestampText === undefined) throw malformed(display, `no ${time} pair`);
  if (signatures.length === 0) throw noSignature(display, `${names.signature} (64 lowercase hex)`);
  return { timestampText, timestamp: Number(timestampText), signatures };
}
