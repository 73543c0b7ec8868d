/** One endpoint secret, or several while rotating it: a delivery verifies under any of them. */
export type Secret = string | readonly string[];

export function normalizeSecrets(secret: Secret): readonly string[] {
  const secrets: readonly unknown[] = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError("secret must be a non-empty string or array of them");
  }
  for (const [index, value] of secrets.entries()) {
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`secret[${index}] must be a non-empty string`);
    }
  }
  return secrets as readonly string[];
}
