import type { HeaderSource } from "../http/headers";
import { requirePayloadBytes } from "../verification/payload";
import { normalizeSecrets, type Secret } from "../verification/secrets";
import { type SignedDelivery, toVerifyResult } from "../verification/signed-delivery";
import { resolveTolerance, type VerifyOptions } from "../verification/tolerance";
import { matchSignatureSync } from "../verification/verify";
import { matchSignature } from "../verification/verify-async";
import type { Scheme } from "./scheme";

/** A scheme's parts; `defineScheme` adds the standalone `verify` and `verifyAsync`, which share the Receiver's chain. */
export type SchemeParts = Omit<Scheme, "verify" | "verifyAsync">;

function read(scheme: SchemeParts, payload: unknown, headers: HeaderSource, secret: Secret, options?: VerifyOptions) {
  const secrets = normalizeSecrets(secret);
  const toleranceSeconds = resolveTolerance(options);
  return scheme.read(requirePayloadBytes(payload), headers, secrets, toleranceSeconds);
}

export function defineScheme(parts: SchemeParts): Scheme {
  return {
    ...parts,
    verify: (payload, headers, secret, options) =>
      toVerifyResult(matchSignatureSync(read(parts, payload, headers, secret, options), options, "verify")),
    verifyAsync: async (payload, headers, secret, options) => {
      const delivery: SignedDelivery = read(parts, payload, headers, secret, options);
      return toVerifyResult(await matchSignature(delivery, options));
    },
  };
}
