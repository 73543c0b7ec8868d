import { constantTimeEqual } from "../crypto/constant-time";
import { hexToBytes } from "../crypto/hex";
import type { Matchers, SignatureMatch, SignedContent } from "../crypto/signed-content";

/**
 * What a sender that signs the URL it called (Twilio) has signed: the content's payload after one of several spellings
 * of that URL (with and without the port…), any of which may be the one the sender used; and, where the URL carries
 * the body's SHA-256 (`bodySHA256=`) instead of the body being signed, the body and that hex digest. The prefix is the
 * spelling tried first.
 */
export interface UrlSignedContent extends SignedContent {
  /** The spellings tried after the prefix, in order, made as they are (a generator): the prefix nearly always matches. */
  urls: () => Iterable<string>;
  /** The matchers of the sender's HMAC, run once per spelling of the URL with it as the prefix. */
  hmac: Matchers;
  body?: Uint8Array | undefined;
  bodySha256?: string | undefined;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Whether the body's SHA-256 is the hex digest the signed URL names (a digest not in lowercase hex never is). */
function bodyMatches(named: string | undefined, digest: () => Uint8Array): boolean {
  if (named === undefined) return true;
  return HEX_SHA256.test(named) && constantTimeEqual(digest(), hexToBytes(named));
}

/** Tries each spelling of the URL in order, the body's digest first where the URL names it. */
export const URL_MATCHERS: Matchers = {
  node(crypto, content, secrets) {
    const { urls, hmac, body, bodySha256 } = content as UrlSignedContent;
    if (
      bodySha256 !== undefined &&
      !bodyMatches(bodySha256, () =>
        crypto
          .createHash("sha256")
          .update(body ?? new Uint8Array())
          .digest(),
      )
    ) {
      return undefined;
    }
    let match = hmac.node(crypto, content, secrets);
    for (const url of match ? [] : urls()) {
      match = hmac.node(crypto, { ...content, prefix: url, matchers: undefined }, secrets);
      if (match) break;
    }
    return match;
  },
  async web(content, secrets): Promise<SignatureMatch | undefined> {
    const { urls, hmac, body, bodySha256 } = content as UrlSignedContent;
    if (bodySha256 !== undefined) {
      const digest = new Uint8Array(
        await crypto.subtle.digest("SHA-256", (body ?? new Uint8Array()) as Uint8Array<ArrayBuffer>),
      );
      if (!bodyMatches(bodySha256, () => digest)) return undefined;
    }
    let match = await hmac.web(content, secrets);
    for (const url of match ? [] : urls()) {
      match = await hmac.web({ ...content, prefix: url, matchers: undefined }, secrets);
      if (match) break;
    }
    return match;
  },
};
