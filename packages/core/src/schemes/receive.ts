import { WebhookVerificationError } from "../errors";
import type { HeaderSource } from "../http/headers";
import type { SignedDelivery } from "../verification/signed-delivery";
import type { SignedRequest } from "../verification/signed-request";
import type { Scheme } from "./scheme";

/** A delivery as read by the scheme whose headers it carries. */
export interface SchemeDelivery extends SignedDelivery {
  scheme: Scheme;
}

/**
 * The header a scheme's `missing_header` names, as the sender spells it: every scheme words it `No <header> header.`
 * (Svix: `No svix-signature (or webhook-signature) header.`).
 */
function missingHeaderOf(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== "missing_header") return undefined;
  return /^No (.+) header\.$/.exec(String((error as Error).message))?.[1];
}

/**
 * Reads a request with the first of `schemes` whose headers hold. When none does, throws the error of the first whose
 * signature header was there (its rule is what the sender needs to hear); when no scheme's signature header was
 * there, the one scheme's `missing_header`, or with several one that names every header they looked for.
 */
export function readDelivery(
  schemes: readonly Scheme[],
  payload: Uint8Array,
  headers: HeaderSource,
  secrets: readonly string[],
  toleranceSeconds: number,
  request?: SignedRequest,
  /** Whether a scheme's own window (`scheme.toleranceSeconds`) applies: no `toleranceSeconds` was given. */
  schemeWindows = false,
): SchemeDelivery {
  let failure: unknown;
  const looked: string[] = [];
  for (const scheme of schemes) {
    try {
      const window = (schemeWindows && scheme.toleranceSeconds) || toleranceSeconds;
      const signed = scheme.read(payload, headers, secrets, window, request) as SchemeDelivery;
      signed.scheme = scheme;
      return signed;
    } catch (error) {
      const missing = missingHeaderOf(error);
      if (missing?.toLowerCase().startsWith(scheme.signatureHeader)) looked.push(`${missing} (${scheme.name})`);
      else failure ??= error;
      if (schemes.length === 1) throw error;
    }
  }
  throw (
    failure ?? new WebhookVerificationError("missing_header", `No signature header: looked for ${looked.join(", ")}.`)
  );
}
