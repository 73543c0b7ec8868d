import { isAsymmetricKey, type SecretKind, UTF8_SECRET } from "../crypto/secret-kind";
import { TOKEN_MATCHERS } from "../crypto/token-matchers";
import type { SignedDelivery } from "../verification/signed-delivery";

/** The kind of a secret a token scheme compares with what the sender sends: any text but an ed25519 key. */
export function tokenSecretKind(secret: string): SecretKind {
  if (isAsymmetricKey(secret)) throw new TypeError("An ed25519 key is no shared token");
  return "token";
}

/** What a token scheme reads: the token sent, compared with each secret; no time is signed. */
export function tokenDelivery(
  payload: Uint8Array,
  token: string,
  label: string,
  secrets: readonly string[],
  toleranceSeconds: number,
): SignedDelivery {
  const content = { prefix: "", payload, signatures: [token], label, matchers: TOKEN_MATCHERS, format: UTF8_SECRET };
  return { content, secrets, timestamp: undefined, toleranceSeconds };
}
