import { hmacMatchers } from "../crypto/hmac-matchers";

const LOWER_HEX = /^[0-9a-f]+$/;

/** A SHA-1 digest in lowercase hex: 40 characters. */
export const isHexSha1 = (text: string): boolean => text.length === 40 && LOWER_HEX.test(text);

/** The HMAC-SHA1 matchers the SHA-1 senders (Intercom, Vercel) share: one instance, so one key cache. */
export const SHA1_MATCHERS = /* @__PURE__ */ hmacMatchers("sha1");
