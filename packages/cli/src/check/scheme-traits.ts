import type { Scheme } from "@tidings/core/schemes";
import { randomId } from "../ids";
import { sampleDelivery, signSample } from "../schemes";

/** The replay window a receiver keeps when neither the sender nor the app says otherwise. */
export const DEFAULT_WINDOW_S = 300;
const encoder = new TextEncoder();

/** What the probes need to know of a scheme, read from the scheme itself rather than from its prose. */
export interface SchemeTraits {
  /**
   * The longest window a receiver of this scheme keeps for a signed time, in seconds (the 5-minute default, or the
   * sender's own when longer: Twitch's 10 minutes); undefined when the scheme signs no time.
   */
  windowSeconds: number | undefined;
  /**
   * False for a shared token or Basic credentials (GitLab, Postmark), which cover no byte of the body, and for a
   * signature inside the body (Mailgun, Adyen), which covers some of its fields, not its bytes.
   */
  coversBody: boolean;
  /** Whether the signature travels inside the body (Mailgun, Adyen) rather than in `signatureHeader`. */
  signsInBody: boolean;
}

/**
 * Signs one sample delivery with `secret` for `url` and reads it back with the scheme's own `read`: it signs a time
 * when `read` finds one, within the window `read` gives. Throws `sign`'s TypeError for a secret the scheme cannot sign
 * with (a public key given where the private key goes).
 */
export function traitsOf(scheme: Scheme, secret: string, url: string): SchemeTraits {
  const now = Math.floor(Date.now() / 1000);
  const id = randomId("evt_");
  const sample = sampleDelivery(scheme, id, now);
  const { body, headers } = signSample(scheme, sample, secret, { timestamp: now, id, url });
  const signed = scheme.read(encoder.encode(body), headers, [secret], DEFAULT_WINDOW_S, { method: "POST", url });
  const signsInBody = sample.signBody !== undefined;
  const windowSeconds =
    signed.timestamp === undefined
      ? undefined
      : Math.max(DEFAULT_WINDOW_S, signed.toleranceSeconds, scheme.toleranceSeconds ?? 0);
  return { windowSeconds, coversBody: !signsInBody && secretKindOf(scheme, secret) !== "token", signsInBody };
}

/** The kind of key `secret` verifies as; undefined for one the receiver does not hold (a private key signs). */
function secretKindOf(scheme: Scheme, secret: string): string | undefined {
  try {
    return scheme.secretKind(secret);
  } catch {
    return undefined;
  }
}
