import type { HeaderSource } from "../http/headers";
import type { SignedDelivery } from "../verification/signed-delivery";
import type { Scheme } from "./scheme";

/** A delivery as read by the scheme whose headers it carries. */
export interface SchemeDelivery extends SignedDelivery {
  scheme: Scheme;
}

/**
 * Reads a request with the first of `schemes` whose headers hold. When none does, throws the error of the first whose
 * signature header was there but broken (its rule is what the sender needs to hear), else the first scheme's.
 */
export function readDelivery(
  schemes: readonly Scheme[],
  payload: Uint8Array,
  headers: HeaderSource,
  secrets: readonly string[],
  toleranceSeconds: number,
): SchemeDelivery {
  let failure: unknown;
  for (const scheme of schemes) {
    try {
      const signed = scheme.read(payload, headers, secrets, toleranceSeconds) as SchemeDelivery;
      signed.scheme = scheme;
      return signed;
    } catch (error) {
      if (failure === undefined || (failure as { code?: unknown }).code === "missing_header") failure = error;
    }
  }
  throw failure;
}
