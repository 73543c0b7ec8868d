import type { HeaderSource } from "../http/headers";
import { errorResult, RETRY_LATER, type ReceiveResult } from "../http/result";
import type { SafeLogger } from "../receiver/logger";
import { isPromiseLike } from "../receiver/promise-like";
import { withTimeLimit } from "../receiver/time-limit";
import type { Scheme } from "../schemes/scheme";
import { type RequestTarget, type TargetSource, UNKNOWN_TARGET } from "./request-target";
import { type EndpointSecrets, resolveEndpoint, type SecretResolver } from "./secret-resolver";

/** What the lookup reads of a request: where it was sent, and its headers for the resolver. */
export interface LookupRequest {
  headers: HeaderSource;
  target?: TargetSource | undefined;
}

/** Told each refusal: the Receiver reports it to `onError` (`logged`: whether the lookup already logged it). */
export type LookupRefusal = (error: unknown, code: "secret_unavailable" | "unknown_endpoint", logged: boolean) => void;

type Found = EndpointSecrets | ReceiveResult;

/**
 * A request's endpoint, found by the app's secret resolver: its secrets, or the answer when the resolver knows none
 * (404 `unknown_endpoint`), failed, returned a secret no scheme can verify with, or outlasted `timeoutMs` (503
 * `secret_unavailable`: the sender retries once the record is fixed, and `onError` hears why). The resolver runs for forged
 * requests too, so a lookup that never settles must not hold each one, and its body, for good.
 */
export class EndpointLookup {
  #loggedUnknown = false;
  readonly #resolver: SecretResolver;
  readonly #timeoutMs: number;
  readonly #logger: SafeLogger;
  readonly #refused: LookupRefusal;
  /** The route's schemes: a secret the resolver returns is checked against them, or the scheme it names. */
  readonly #schemes: readonly Scheme[];

  constructor(
    resolver: SecretResolver,
    timeoutMs: number,
    logger: SafeLogger,
    refused: LookupRefusal,
    schemes: readonly Scheme[],
  ) {
    this.#resolver = resolver;
    this.#timeoutMs = timeoutMs;
    this.#logger = logger;
    this.#refused = refused;
    this.#schemes = schemes;
  }

  /** Synchronous when the adapter's target and the resolver are, so a sync resolver adds no turn to the delivery. */
  find(request: LookupRequest, trace?: { target: RequestTarget | undefined }): Found | Promise<Found> {
    let found: Found | PromiseLike<Found>;
    try {
      const target = request.target ? request.target() : UNKNOWN_TARGET;
      found = isPromiseLike(target)
        ? Promise.resolve(target).then(
            (known) => this.#ask(known, request.headers, trace),
            (error: unknown) => this.#failed(error),
          )
        : this.#ask(target, request.headers, trace);
    } catch (error) {
      return this.#failed(error);
    }
    if (!isPromiseLike(found)) return found;
    return withTimeLimit(Promise.resolve(found), this.#timeoutMs, () =>
      this.#failed(new Error(`The secret resolver did not settle within ${this.#timeoutMs} ms (resolverTimeoutMs).`)),
    );
  }

  #ask(
    target: RequestTarget,
    headers: HeaderSource,
    trace: { target: RequestTarget | undefined } | undefined,
  ): Found | Promise<Found> {
    if (trace) trace.target = target;
    try {
      const found = resolveEndpoint(this.#resolver, target, headers, this.#schemes);
      return isPromiseLike(found)
        ? found.then(
            (known) => known ?? this.#unknown(target),
            (error: unknown) => this.#failed(error),
          )
        : (found ?? this.#unknown(target));
    } catch (error) {
      return this.#failed(error);
    }
  }

  #failed(error: unknown): ReceiveResult {
    this.#refused(error, "secret_unavailable", false);
    return errorResult("secret_unavailable", "The endpoint's secret could not be looked up; retry later.", RETRY_LATER);
  }

  #unknown(target: RequestTarget): ReceiveResult {
    const message = `No endpoint is configured for ${target.path || "this request"}: the secret resolver returned none.`;
    if (!this.#loggedUnknown) {
      // Once: a sender (or a scanner) hitting unknown paths must not flood the logs.
      this.#loggedUnknown = true;
      this.#logger.warn({ message: `[tidings] ${message}`, code: "unknown_endpoint", path: target.path });
    }
    this.#refused(new Error(message), "unknown_endpoint", true);
    return errorResult("unknown_endpoint", "No endpoint is configured here.");
  }
}
