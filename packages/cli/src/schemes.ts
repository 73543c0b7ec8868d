import { catalogue, type Scheme } from "@tidings/core/schemes";
import { CliError } from "./io";
import type { SampleDelivery } from "./senders/sample";
import { SAMPLES } from "./senders/samples";

/** The senders `--scheme` names, from core's catalogue; `service-signature` keeps the service's own probes and output. */
export const SCHEMES: ReadonlyMap<string, Scheme> = new Map(
  catalogue()
    .filter((scheme) => scheme.name !== "service-signature")
    .map((scheme) => [scheme.name, scheme]),
);

export const SCHEME_NAMES = ["service-signature", ...SCHEMES.keys()] as const;

/** The scheme named, or undefined for the service's own. */
export function schemeNamed(name: string | undefined): Scheme | undefined {
  return name === undefined || name === "service-signature" ? undefined : SCHEMES.get(name);
}

/** A delivery shaped as the scheme's sender shapes it, with `id` as its dedup id, signed at `now`. */
export function sampleDelivery(scheme: Scheme, id: string, now: number): SampleDelivery {
  const sample = SAMPLES[scheme.name];
  if (!sample) throw new Error(`No sample delivery for the ${scheme.name} scheme`);
  return sample(id, now);
}

/** What a delivery is signed for: when, with which dedup id, and the URL it goes to (which some senders sign). */
export interface SigningFor {
  timestamp: number;
  id: string;
  url: string;
}

/**
 * `sample` signed as its sender signs it: by the scheme's `sign`, in headers; or, for a sender that signs inside the
 * body (Mailgun, Adyen), whose signature no header can carry, by the sample's own `signBody` (the sender's documented
 * algorithm), `change` rewriting or dropping the signature. Throws the scheme's TypeError for a secret it cannot take.
 */
export function signSample(
  scheme: Scheme,
  sample: SampleDelivery,
  secret: string,
  signing: SigningFor,
  change?: (valid: string) => string | undefined,
): { body: string; headers: Record<string, string> } {
  const headers = { "content-type": sample.contentType, ...sample.headers };
  if (sample.signBody) {
    scheme.secretKind(secret);
    return { body: sample.signBody(secret, signing.timestamp, change), headers };
  }
  return { body: sample.body, headers: { ...headers, ...scheme.sign(sample.body, secret, signing) } };
}

/**
 * Throws a CliError saying why `scheme` cannot sign with `secret`: a public key given where the sender's private key
 * goes, a secret not written as the sender writes it.
 */
export function requireSigningSecret(scheme: Scheme | undefined, secret: string, url: string): void {
  if (!scheme) return;
  const signing = { timestamp: Math.floor(Date.now() / 1000), id: "evt_secret_check", url };
  try {
    signSample(scheme, sampleDelivery(scheme, signing.id, signing.timestamp), secret, signing);
  } catch (error) {
    throw new CliError(`--scheme ${scheme.name} cannot sign with that --secret: ${(error as Error).message}`);
  }
}
