import { startDashboard } from "../dashboard/server";
import { createApp } from "./app";
import { type ChaosSettings, chaosSettings } from "./chaos";
import { createDeliverer } from "./deliverer";
import { type Listening, serveFetch } from "./http";
import { IdempotencyStore } from "./idempotency";
import { Journal } from "./journal";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY, IDEMPOTENCY_MAX_KEYS, type RetryPolicy } from "./rules";

/**
 * Where the emulator delivers, with which secret, and how it behaves: retries, chaos, the dashboard.
 *
 * @example
 * ```ts
 * import { type EmulatorOptions, startEmulator } from "@tidings/cli";
 *
 * // A receiver under test that must cope with duplicates, reordering and a skewed clock, reproducibly.
 * const options: EmulatorOptions = {
 *   webhookUrl: "http://127.0.0.1:3000/webhooks",
 *   secret: "whsec_local_test",
 *   retry: { attempts: 3, baseDelayMs: 100 },
 *   chaos: { duplicates: 0.5, reorder: 0.5, clockSkewS: 30, seed: 42 },
 *   log: false,
 * };
 * const emulator = await startEmulator(options);
 * ```
 */
export interface EmulatorOptions {
  /** Where the signed delivery events are POSTed. */
  webhookUrl: string;
  /** The endpoint secret the events are signed with. */
  secret: string;
  /** Default 0: any free port (see `url`). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default `{ attempts: 5, baseDelayMs: 250, factor: 2 }`. */
  retry?: Partial<RetryPolicy>;
  /** One delivery attempt is abandoned after this many ms. Default 5000. */
  attemptTimeoutMs?: number;
  /** Receives one line per API request and per delivery attempt. Default `console.log`; `false` for silence. */
  log?: ((line: string) => void) | false;
  /** Duplicates, reordering, delays and clock skew, reproducible from `seed`. Default: none. */
  chaos?: Partial<ChaosSettings>;
  /** Serve the dashboard on its own address (`true`: a free port on `host`). Default: off. */
  dashboard?: boolean | { port?: number; host?: string };
  /**
   * How many Idempotency-Keys are remembered at most (for 24 hours each; the oldest are forgotten first past this).
   * Default 10,000: raise it for a run that writes more, or a late retry of an early write is taken as a new one.
   */
  idempotencyKeys?: number;
}

/**
 * A running emulator: its address, the chaos in effect, and ways to wait for it and stop it.
 *
 * @example
 * ```ts
 * import { type Emulator, startEmulator } from "@tidings/cli";
 *
 * // The emulator of a test file, stopped after its last test.
 * let emulator: Emulator | undefined;
 * export async function emulatorFor(webhookUrl: string): Promise<Emulator> {
 *   emulator ??= await startEmulator({ webhookUrl, secret: "whsec_local_test", log: false });
 *   return emulator;
 * }
 * export const stopEmulator = () => emulator?.close();
 * ```
 */
export interface Emulator {
  /** The base URL, e.g. `http://127.0.0.1:4010`; the API is at `${url}/v3/messages`. */
  url: string;
  /** The dashboard's address, when it is served. */
  dashboardUrl?: string;
  /** The chaos in effect (its seed included, to replay a run). */
  readonly chaos: ChaosSettings;
  /** Resolves when every delivery sequence started so far has ended (delivered, or abandoned after the last attempt). */
  idle(): Promise<void>;
  /** Stops accepting requests, cancels pending retries and attempts in flight, and resolves when all has stopped. */
  close(): Promise<void>;
}

function checkOptions(options: EmulatorOptions): {
  retry: RetryPolicy;
  attemptTimeoutMs: number;
  chaos: ChaosSettings;
  idempotencyKeys: number;
} {
  const url = URL.canParse(options.webhookUrl) ? new URL(options.webhookUrl) : undefined;
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new TypeError("webhookUrl must be an absolute http:// or https:// URL");
  }
  if (typeof options.secret !== "string" || options.secret === "") {
    throw new TypeError("secret must be a non-empty string");
  }
  const port = options.port ?? 0;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) throw new TypeError("port must be 0 to 65535");
  const given = Object.entries(options.retry ?? {}).filter(([, value]) => value !== undefined);
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...Object.fromEntries(given) };
  if (!Number.isSafeInteger(retry.attempts) || retry.attempts < 1) throw new TypeError("retry.attempts must be ≥ 1");
  if (!Number.isFinite(retry.baseDelayMs) || retry.baseDelayMs < 0) {
    throw new TypeError("retry.baseDelayMs must be ≥ 0");
  }
  if (!Number.isFinite(retry.factor) || retry.factor < 1) throw new TypeError("retry.factor must be ≥ 1");
  const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  if (!Number.isSafeInteger(attemptTimeoutMs) || attemptTimeoutMs < 1) {
    throw new TypeError("attemptTimeoutMs must be a whole number ≥ 1");
  }
  const idempotencyKeys = options.idempotencyKeys ?? IDEMPOTENCY_MAX_KEYS;
  if (!Number.isSafeInteger(idempotencyKeys) || idempotencyKeys < 1) {
    throw new TypeError("idempotencyKeys must be a whole number ≥ 1");
  }
  return { retry, attemptTimeoutMs, chaos: chaosSettings(options.chaos), idempotencyKeys };
}

/**
 * Starts the emulated service (test mode) on `host:port`; accepted messages are delivered to `webhookUrl`.
 *
 * @example
 * ```ts
 * import { startEmulator } from "@tidings/cli";
 *
 * const emulator = await startEmulator({ webhookUrl: "http://127.0.0.1:3000/webhooks", secret: "whsec_local_test" });
 * await fetch(`${emulator.url}/v3/messages`, {
 *   method: "POST",
 *   headers: { authorization: "Bearer sk_test_local" },
 *   body: new URLSearchParams({ channel: "sms", to: "+15551234567", body: "Your code is 123456" }),
 * });
 * await emulator.idle(); // every event sequence started so far is delivered (or abandoned): assert on your receiver
 * await emulator.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const { retry, attemptTimeoutMs, chaos, idempotencyKeys } = checkOptions(options);
  const log = options.log === false ? () => {} : (options.log ?? console.log);
  const host = options.host ?? "127.0.0.1";
  const journal = new Journal();
  const deliverer = createDeliverer({
    webhookUrl: options.webhookUrl,
    secret: options.secret,
    retry,
    attemptTimeoutMs,
    chaos,
    journal,
    log,
  });
  const app = createApp({
    idempotency: new IdempotencyStore({ maxKeys: idempotencyKeys }),
    onAccepted: (message) => deliverer.deliver(message),
    log,
  });
  const api = await serveFetch(app.fetch, options.port ?? 0, host);
  let dashboard: Listening | undefined;
  if (options.dashboard) {
    const { port = 0, host: dashboardHost = host } = options.dashboard === true ? {} : options.dashboard;
    dashboard = await startDashboard(
      { journal, deliverer, apiUrl: api.url, webhookUrl: options.webhookUrl },
      port,
      dashboardHost,
    ).catch(async (error: unknown) => {
      await Promise.all([api.close(), deliverer.close()]);
      throw error;
    });
  }
  let closing: Promise<void> | undefined;
  return {
    url: api.url,
    ...(dashboard ? { dashboardUrl: dashboard.url } : {}),
    get chaos() {
      return deliverer.chaos;
    },
    idle: () => deliverer.idle(),
    close() {
      closing ??= Promise.all([api.close(), dashboard?.close({ drop: true }), deliverer.close()]).then(() => {});
      return closing;
    },
  };
}
