import { isAsymmetricKey, type SecretKind } from "../crypto/secret-kind";

/** The kind of a secret a token scheme compares with what the sender sends: any text but an ed25519 key. */
export function tokenSecretKind(secret: string): SecretKind {
  if (isAsymmetricKey(secret)) throw new TypeError("An ed25519 key is no shared token");
  return "token";
}
