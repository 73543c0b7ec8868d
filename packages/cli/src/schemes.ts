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

/**
 * Throws a CliError saying why `scheme` cannot sign with `secret`: a public key given where the sender's private key
 * goes, a secret not written as the sender writes it, a sender that signs inside the body.
 */
export function requireSigningSecret(scheme: Scheme | undefined, secret: string, url: string): void {
  if (!scheme) return;
  try {
    scheme.sign("{}", secret, { url });
  } catch (error) {
    throw new CliError(`--scheme ${scheme.name} cannot sign with that --secret: ${(error as Error).message}`);
  }
}
