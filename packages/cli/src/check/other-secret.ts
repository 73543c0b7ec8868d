import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The private key a secret is (PEM, or base64 of PKCS #8 DER), or undefined. */
function privateKeyOf(secret: string): { key: KeyObject; pem: boolean } | undefined {
  try {
    if (secret.includes("PRIVATE KEY")) return { key: createPrivateKey(secret), pem: true };
    if (!BASE64.test(secret)) return undefined;
    return { key: createPrivateKey({ key: Buffer.from(secret, "base64"), format: "der", type: "pkcs8" }), pem: false };
  } catch {
    return undefined;
  }
}

/** A fresh private key of the same type and curve, written as `secret` is. */
function anotherKey({ key, pem }: { key: KeyObject; pem: boolean }): string {
  const { privateKey } = generateKeyPairSync(key.asymmetricKeyType as "ec", {
    namedCurve: key.asymmetricKeyDetails?.namedCurve ?? "prime256v1",
  });
  return pem
    ? (privateKey.export({ format: "pem", type: "pkcs8" }) as string)
    : privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
}

/** Random text shaped as `text`: hex stays hex of that length, base64 base64 of as many bytes, else letters and digits. */
function sameShape(text: string): string {
  if (HEX.test(text) && text.length % 2 === 0) return randomBytes(text.length / 2).toString("hex");
  if (text.length % 4 === 0 && BASE64.test(text))
    return randomBytes(Buffer.from(text, "base64").length).toString("base64");
  return Array.from(randomBytes(text.length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

/**
 * A secret the sender never signed with, which the scheme's `sign` still takes: the secret with a suffix where that is
 * still a secret of its kind, else one of the same shape (`whsec_` and base64, hex of that length, another key of the
 * same curve for a private key). `signs` throws for a secret the scheme cannot sign with.
 */
export function otherSecret(secret: string, signs: (secret: string) => unknown): string {
  const key = privateKeyOf(secret);
  const prefix = /^[A-Za-z]+_/.exec(secret)?.[0] ?? "";
  const candidates = key
    ? [anotherKey(key)]
    : [`${secret}_not_yours`, prefix + sameShape(secret.slice(prefix.length)), sameShape(secret)];
  for (const candidate of candidates) {
    try {
      signs(candidate);
      return candidate;
    } catch {
      // Not a secret this scheme signs with: try the next shape.
    }
  }
  throw new TypeError("No other secret of the kind given to --secret could be made for the wrong-secret probe");
}
