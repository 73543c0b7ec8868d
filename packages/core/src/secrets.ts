/** One endpoint secret, or several while rotating it: a delivery verifies under any of them. */
export type Secret = string | readonly string[];

export function normalizeSecrets(secret: Secret): readonly string[] {
  const secrets: readonly unknown[] = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError("secret must be a non-empty string or a non-empty array of non-empty strings");
  }
  for (const [index, value] of secrets.entries()) {
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`secret[${index}] must be a non-empty string (the webhook endpoint's secret)`);
    }
  }
  return secrets as readonly string[];
}
