import type { HeaderSource } from "../http/headers";
import { requirePayloadBytes } from "../payload";
import { normalizeSecrets, type Secret } from "../secrets";
import { resolveTolerance, type VerifyOptions } from "../tolerance";
import { type SignedDelivery, toVerifyResult } from "../verification";
import { matchSignatureSync } from "../verify";
import { matchSignature } from "../verify-async";
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
