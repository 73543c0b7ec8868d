import { type ApiError, apiError } from "./errors";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_TTL_MS } from "./rules";

/** The first response to a key, replayed byte for byte. */
export interface StoredResponse {
  status: number;
  body: string;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse;
  expiresAt: number;
}

export type Lookup = { kind: "new" } | { kind: "replay"; response: StoredResponse } | { kind: "conflict" };

/** The request's identity for idempotency: its form fields, order-insensitive, values exact. */
export function fingerprint(form: URLSearchParams): string {
  const entries = [...form.entries()].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1,
  );
  return JSON.stringify(entries);
}

/** Header syntax: 1 to 255 visible characters. */
export function checkIdempotencyKey(key: string): ApiError | undefined {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    return apiError(
      400,
      "invalid_idempotency_key",
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters.`,
    );
  }
  return undefined;
}

/**
 * Remembers the first accepted response per (API key, Idempotency-Key) for `ttlMs`, at most `maxKeys` keys
 * (oldest dropped first). Only accepted requests are stored: a request refused by validation can be fixed and
 * retried under the same key.
 */
export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;

  constructor(options: { ttlMs?: number; maxKeys?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
    this.#maxKeys = options.maxKeys ?? IDEMPOTENCY_MAX_KEYS;
    this.#now = options.now ?? Date.now;
  }

  lookup(apiKey: string, key: string, requestFingerprint: string): Lookup {
    const id = `${apiKey}\n${key}`;
    const entry = this.#entries.get(id);
    if (!entry) return { kind: "new" };
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(id);
      return { kind: "new" };
    }
    return entry.fingerprint === requestFingerprint
      ? { kind: "replay", response: entry.response }
      : { kind: "conflict" };
  }

  remember(apiKey: string, key: string, requestFingerprint: string, response: StoredResponse): void {
    const id = `${apiKey}\n${key}`;
    this.#entries.delete(id);
    this.#entries.set(id, { fingerprint: requestFingerprint, response, expiresAt: this.#now() + this.#ttlMs });
    while (this.#entries.size > this.#maxKeys) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
