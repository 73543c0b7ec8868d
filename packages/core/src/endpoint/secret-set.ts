import type { Scheme } from "../schemes/scheme";

/**
 * A secret that stops verifying after `notAfter`, so the old secret of a rotation retires on schedule.
 *
 * @example
 * ```ts
 * import { createReceiver, type ExpiringSecret } from "@tidings/core";
 *
 * // The old secret stops verifying on 1 December, without a deploy.
 * const previous: ExpiringSecret = {
 *   value: process.env.OLD_WEBHOOK_SECRET!,
 *   notAfter: new Date("2026-12-01T00:00:00Z"),
 * };
 * export const receiver = createReceiver({ secret: [process.env.WEBHOOK_SECRET!, previous] });
 * ```
 */
export interface ExpiringSecret {
  value: string;
  /** A Date, or Unix milliseconds: from then on this secret no longer verifies. */
  notAfter?: Date | number | undefined;
}

/** One endpoint's secret, or several while rotating it; any may carry a deadline. */
export type EndpointSecret = string | ExpiringSecret | readonly (string | ExpiringSecret)[];

/** Secrets checked once: their values in configured order, and each one's deadline where any has one. */
export interface SecretSet {
  values: readonly string[];
  /** Unix ms per value (Infinity for none); undefined when no secret has a deadline, the common case. */
  notAfter: readonly number[] | undefined;
}

/** The secrets still valid at `nowMs`, and where each sits in the configured list (what `secretIndex` reports). */
export interface ActiveSecrets {
  values: readonly string[];
  indexes: readonly number[];
}

function deadline(notAfter: ExpiringSecret["notAfter"], index: number): number {
  if (notAfter === undefined) return Number.POSITIVE_INFINITY;
  const ms = notAfter instanceof Date ? notAfter.getTime() : notAfter;
  if (typeof ms !== "number" || Number.isNaN(ms)) {
    throw new TypeError(`secret[${index}].notAfter must be a Date or Unix milliseconds`);
  }
  return ms;
}

/**
 * Checks secrets as configured or as a resolver returned them. Throws TypeError on anything else, and, given the
 * `schemes` that may read a request, on a secret none of them can verify with (`Scheme.secretKind`; the first
 * scheme's TypeError says why): a request is verified only with the secrets its scheme accepts, so such a secret is a
 * mistake, a malformed key, a Stripe API key, a public key on an HMAC scheme.
 */
export function toSecretSet(secret: EndpointSecret, schemes?: readonly Scheme[]): SecretSet {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0) {
    throw new TypeError("secret must be a non-empty string, { value, notAfter }, or an array of them");
  }
  const values: string[] = [];
  const deadlines: number[] = [];
  let anyDeadline = false;
  for (const [index, entry] of list.entries()) {
    const value = typeof entry === "string" ? entry : (entry as ExpiringSecret | null)?.value;
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`secret[${index}] must be a non-empty string or { value, notAfter }`);
    }
    const notAfter = typeof entry === "string" ? undefined : (entry as ExpiringSecret).notAfter;
    anyDeadline ||= notAfter !== undefined;
    if (schemes && !schemes.some((scheme) => accepts(scheme, value))) schemes[0]?.secretKind(value);
    values.push(value);
    deadlines.push(deadline(notAfter, index));
  }
  return { values, notAfter: anyDeadline ? deadlines : undefined };
}

function accepts(scheme: Scheme, secret: string): boolean {
  try {
    scheme.secretKind(secret);
    return true;
  } catch {
    return false;
  }
}

/** The secrets still valid at `nowMs`, given each one's deadline. */
export function activeSecrets(values: readonly string[], notAfter: readonly number[], nowMs: number): ActiveSecrets {
  const active: string[] = [];
  const indexes: number[] = [];
  for (const [index, value] of values.entries()) {
    if (nowMs < (notAfter[index] as number)) {
      active.push(value);
      indexes.push(index);
    }
  }
  return { values: active, indexes };
}
