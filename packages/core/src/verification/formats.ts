// What a signature header's parts must look like. A `+` loop with the length checked apart, because V8 runs it in
// about half the instructions of a counted one (`{64}`, `{1,15}`), and these run on every delivery.
const DIGITS = /^[0-9]+$/;
const LOWER_HEX = /^[0-9a-f]+$/;
// Canonical base64 only: the last character before the padding has its unused low bits zero (2 bits before one `=`,
// 4 before two), as every encoder writes it. A decoder ignores those bits, so without this rule one signature has 4
// (or 16) spellings, and a spelling is a dedup key where a sender gives no id.
const BASE64_ONE_PAD = /^[A-Za-z0-9+/]+[AEIMQUYcgkosw048]=$/;
const BASE64_TWO_PADS = /^[A-Za-z0-9+/]+[AQgw]==$/;

/** 1 to 15 digits: seconds since 1970, never more than a Number holds exactly. */
export const isTimestampText = (text: string): boolean => text.length <= 15 && DIGITS.test(text);

/** A SHA-256 digest in lowercase hex. */
export const isHexSha256 = (text: string): boolean => text.length === 64 && LOWER_HEX.test(text);

/** A SHA-256 digest in padded, canonical base64. */
export const isBase64Sha256 = (text: string): boolean => text.length === 44 && BASE64_ONE_PAD.test(text);

/** A SHA-1 digest (20 bytes) in padded, canonical base64: Twilio's HMAC-SHA1. */
export const isBase64Sha1 = (text: string): boolean => text.length === 28 && BASE64_ONE_PAD.test(text);

/** An ed25519 signature (64 bytes) in padded, canonical base64. */
export const isBase64Ed25519 = (text: string): boolean => text.length === 88 && BASE64_TWO_PADS.test(text);
