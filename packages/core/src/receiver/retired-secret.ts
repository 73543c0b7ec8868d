import type { ActiveSecrets } from "../endpoint/secret-set";
import type { SignedDelivery } from "../verification/signed-delivery";
import type { VerifyOptions } from "../verification/tolerance";
import { matchSignature } from "../verification/verify-async";

/**
 * Asked only once no active secret matched: which secret past its `notAfter` signed this delivery inside the time
 * window, as its place in the configured list, or undefined. A sender still on the retired secret then shows in the
 * app's logs and outcomes, while the sender itself is answered `signature_mismatch` exactly as a forger is.
 */
export async function retiredSecretIndex(
  delivery: SignedDelivery,
  values: readonly string[],
  active: ActiveSecrets,
  verifyOptions: VerifyOptions,
): Promise<number | undefined> {
  const retired = values.flatMap((_, index) => (active.indexes.includes(index) ? [] : [index]));
  try {
    const secrets = retired.map((index) => values[index] as string);
    return retired[(await matchSignature({ ...delivery, secrets }, verifyOptions)).secretIndex];
  } catch {
    // No retired secret matched either, or it signed outside the window (an old capture, not a sender behind).
    return undefined;
  }
}
