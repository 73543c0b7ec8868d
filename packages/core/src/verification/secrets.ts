/**
 * One endpoint secret, or several while rotating it: a delivery verifies under any of them.
 *
 * @example
 * ```ts
 * import { type Secret, verify } from "@tidings/core";
 *
 * // While rotating: the new secret first, the old one until no delivery is signed with it.
 * const secret: Secret = [process.env.WEBHOOK_SECRET!, process.env.OLD_WEBHOOK_SECRET!];
 *
 * export function check(body: Uint8Array, header: string | null): void {
 *   const { secretIndex } = verify(body, header, secret);
 *   if (secretIndex > 0) console.warn("still signed with the old secret");
 * }
 * ```
 */
export type Secret = string | readonly string[];

export function normalizeSecrets(secret: Secret): readonly string[] {
  const secrets: readonly unknown[] = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError("secret must be a non-empty string or array");
  }
  for (const [index, value] of secrets.entries()) {
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`secret[${index}] must be a non-empty string`);
    }
  }
  return secrets as readonly string[];
}
