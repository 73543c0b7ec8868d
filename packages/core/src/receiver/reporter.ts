import { STATUS_BY_CODE, WebhookVerificationError } from "../errors";
import { errorFacts, type SafeLogger } from "../ground/logger";
import { errorResult, type ReceiveResult } from "../http/result";
import { type ErrorListener, notifyListeners } from "./dispatcher";
import type { ReceiveErrorInfo } from "./error-info";

/** What `onError` is told: the status is the code's, unless the sender was answered otherwise. */
export type Report = Omit<ReceiveErrorInfo, "status"> & { status?: number };

const MAX_WARNED_ENDPOINTS = 1000;
const SHED_WARNING_EVERY_MS = 60_000;

/**
 * Where every step of a delivery tells what went wrong: `onError` listeners, else the logger; and the answer a failure
 * gets from the outcome table. Warnings that would flood the logs are given once (or once a minute) here.
 */
export class Reporter {
  readonly listeners: ErrorListener[] = [];
  #loggedMisconfiguration = false;
  #lastShedWarning = Number.NEGATIVE_INFINITY;
  readonly #warnedRetiredSecret = new Set<string | undefined>();

  constructor(readonly logger: SafeLogger) {}

  /** Tells `onError` subscribers; failures of ours nobody subscribed to go to the logger. */
  report(error: unknown, report: Report, logWhenUnheard = true): void {
    const info: ReceiveErrorInfo = { ...report, status: report.status ?? STATUS_BY_CODE[report.code] };
    if (this.listeners.length === 0) {
      if (logWhenUnheard) {
        const { code, status, context } = info;
        this.logger.error({
          message: `[tidings] ${code}: answered ${status}`,
          code,
          status,
          ...(context && { type: context.type, deliveryKey: context.deliveryKey }),
          err: errorFacts(error),
        });
      }
      return;
    }
    notifyListeners(this.listeners, [error, info], this.logger);
  }

  /** The answer to a failure: a verification error's own code, else 500 `internal_error` (nothing of it leaks). */
  failure(
    error: unknown,
    about: { event?: unknown } = {},
    issues?: readonly unknown[],
    details?: Readonly<Record<string, unknown>>,
  ): ReceiveResult {
    if (error instanceof WebhookVerificationError) {
      if (error.code === "body_already_parsed" && !this.#loggedMisconfiguration) {
        this.#loggedMisconfiguration = true;
        this.logger.error({ message: `[tidings] ${error.message}`, code: error.code });
      }
      this.report(error, { code: error.code, ...about, ...(details && { details }) }, false);
      return errorResult(error.code, error.message, { issues });
    }
    this.report(error, { code: "internal_error", ...about });
    return errorResult("internal_error", "Unexpected failure; see the server logs.");
  }

  /** A delivery shed: told to `onError`; without listeners, a warning at most once a minute (shedding comes in bursts). */
  shed(error: Error, nowMs: number): void {
    this.report(error, { code: "overloaded" }, false);
    if (this.listeners.length > 0 || nowMs - this.#lastShedWarning < SHED_WARNING_EVERY_MS) return;
    this.#lastShedWarning = nowMs;
    this.logger.warn({ message: `[tidings] overloaded: ${error.message}`, code: "overloaded" });
  }

  /** Once per endpoint: each refused delivery reaches `onError` and the outcome, and a sender retries many times. */
  retiredSecret(secretIndex: number, endpoint: string | undefined): void {
    const warned = this.#warnedRetiredSecret;
    if (warned.has(endpoint)) return;
    // Labels come from the resolver, which may echo the path: a holder of a leaked old secret must not grow this.
    if (warned.size >= MAX_WARNED_ENDPOINTS) warned.clear();
    warned.add(endpoint);
    this.logger.warn({
      message: `[tidings] Signed with secret ${secretIndex}, past its notAfter: the sender still uses it (answered signature_mismatch).`,
      code: "retired_secret",
      secretIndex,
      endpoint,
    });
  }
}
