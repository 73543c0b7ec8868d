import type { EndpointSecrets } from "../endpoint/secret-resolver";
import { type ActiveSecrets, activeSecrets } from "../endpoint/secret-set";
import type { HeaderSource } from "../http/headers";
import type { ReceiveResult } from "../http/result";
import { readDelivery, type SchemeDelivery } from "../schemes/receive";
import type { Scheme } from "../schemes/scheme";
import { requirePayloadBytes } from "../verification/payload";
import type { VerifiedDelivery } from "../verification/signed-delivery";
import type { SignedRequest } from "../verification/signed-request";
import { matchSignature } from "../verification/verify-async";
import { isAnswer, type ReceiverParts, type Step } from "./pipeline";
import { retiredSecretIndex } from "./retired-secret";
import type { Trace } from "./trace";

const NO_SECRETS: readonly string[] = [];

/** A delivery whose signature held: as its scheme read it, what matched, and the secrets that were still valid. */
export interface Verified {
  signed: SchemeDelivery;
  verified: VerifiedDelivery;
  /** With deadlines (`notAfter`): the secrets still valid, and their configured places. */
  active: ActiveSecrets | undefined;
}

/** `onError` details of a `signature_mismatch`: what the sender is never told. */
type MismatchDetails = {
  secretsConfigured: number;
  secretsExpired: number;
  /** Set when a secret past its `notAfter` signed the delivery, inside the time window: its configured place. */
  retiredSecretIndex?: number;
};

/** The delivery as the first of `schemes` whose headers it carries reads it, or the answer refusing it. */
export function readSigned(
  { options, reporter }: ReceiverParts,
  schemes: readonly Scheme[],
  body: unknown,
  headers: HeaderSource,
  request: SignedRequest | undefined,
): SchemeDelivery | ReceiveResult {
  try {
    return readDelivery(
      schemes,
      requirePayloadBytes(body),
      headers,
      options.secrets?.values ?? NO_SECRETS,
      options.verifyOptions.toleranceSeconds,
      request,
      options.schemeWindows,
    );
  } catch (error) {
    return reporter.failure(error);
  }
}

/**
 * Verifies a delivery read by its scheme against the endpoint's secrets: read again by the scheme the resolver names,
 * if another; with deadlines (`notAfter`), only the secrets still valid verify (`secretIndex` still counts configured
 * ones). The answer, when no secret matched, says in `onError` which were tried and whether a retired one signed it.
 */
export function verifySignature(
  parts: ReceiverParts,
  signedBy: SchemeDelivery,
  body: Uint8Array,
  found: EndpointSecrets,
  headers: HeaderSource,
  request: SignedRequest | undefined,
  trace: Trace | undefined,
): Step<Verified> {
  const signed =
    found.scheme && found.scheme !== signedBy.scheme
      ? readSigned(parts, [found.scheme], body, headers, request)
      : signedBy;
  if (isAnswer(signed)) return signed;
  const { values, notAfter } = found.secrets;
  const active = notAfter && activeSecrets(values, notAfter, parts.options.nowMs());
  signed.secrets = active ? active.values : values;
  const refused = (error: unknown) => refusedSignature(parts, error, signed, found, active, trace);
  try {
    const checked = matchSignature(signed, parts.options.verifyOptions);
    if (checked instanceof Promise) return checked.then((verified) => ({ signed, verified, active }), refused);
    return { signed, verified: checked, active };
  } catch (error) {
    return refused(error);
  }
}

/** A signature that matched no secret, with what the app's logs need: which secrets were tried, one retired. */
async function refusedSignature(
  { options, reporter }: ReceiverParts,
  error: unknown,
  signed: SchemeDelivery,
  { secrets, endpoint }: EndpointSecrets,
  active: ActiveSecrets | undefined,
  trace: Trace | undefined,
): Promise<ReceiveResult> {
  if ((error as { code?: unknown } | null)?.code !== "signature_mismatch") return reporter.failure(error);
  const details: MismatchDetails = {
    secretsConfigured: secrets.values.length,
    secretsExpired: secrets.values.length - signed.secrets.length,
  };
  if (active && details.secretsExpired > 0) {
    const retired = await retiredSecretIndex(signed, secrets.values, active, options.verifyOptions);
    if (retired !== undefined) {
      details.retiredSecretIndex = retired;
      if (trace) trace.retiredSecretIndex = retired;
      reporter.retiredSecret(retired, endpoint);
    }
  }
  return reporter.failure(error, {}, undefined, details);
}
