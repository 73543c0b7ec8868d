import type { BodyLimits } from "../body/limits";
import { type RequestTarget, type TargetSource, UNKNOWN_TARGET } from "../endpoint/request-target";
import { type EndpointSecrets, resolveEndpoint, type SecretResolver } from "../endpoint/secret-resolver";
import { activeSecrets } from "../endpoint/secret-set";
import { type ReceiveErrorCode, WebhookVerificationError } from "../errors";
import { type DeliveryEvent, parseEvent } from "../event";
import type { HeaderSource } from "../http/headers";
import { ACCEPTED, DUPLICATE, errorResult, type ReceiveResult, STALE } from "../http/result";
import { readDelivery, type SchemeDelivery } from "../schemes/receive";
import type { ObjectPosition, OrderedClaimResult } from "../store/delivery-store";
import { requirePayloadBytes } from "../verification/payload";
import { matchSignature } from "../verification/verify-async";
import { endpointKey } from "./delivery-key";
import { Dispatcher, type ErrorListener, notifyListeners } from "./dispatcher";
import type { EventMap, MessageEvents } from "./events";
import type { AnyEvent, DeliveryContext, DeliveryInfo, Handler } from "./handlers";
import { errorFacts } from "./logger";
import { type ReceiverOptions, type ResolvedReceiverOptions, resolveReceiverOptions } from "./options";
import { claimInOrder, positionOf } from "./order";
import { type DeliveryOutcome, type HandlerRun, type OutcomeListener, preciseNow } from "./outcome";
import { isPromiseLike } from "./promise-like";
import { retiredSecretIndex } from "./retired-secret";
import { validateEvent } from "./validation";

/** A delivery whose body an adapter has already read. */
export interface IncomingDelivery {
  rawBody: Uint8Array;
  headers: HeaderSource;
  /** Where it was sent: what a secret resolver and outcome listeners are told. */
  target?: RequestTarget | undefined;
}

/** A request as an adapter sees it: the Receiver decides whether and how far to read the body. */
export interface IncomingRequest {
  method?: string | undefined;
  headers: HeaderSource;
  /** May answer synchronously when the bytes are already at hand (a body parser's buffer). */
  readBody(limits: Required<BodyLimits>): Uint8Array | Promise<Uint8Array>;
  /** Where the request was sent; asked only when a secret resolver or an outcome listener needs it. */
  target?: TargetSource | undefined;
}

/** Passed to `onError` handlers with every failure: what the sender was answered, and about which event. */
export interface ReceiveErrorInfo {
  code: ReceiveErrorCode;
  status: number;
  /** Facts for the app's logs, kept out of the answer the sender sees (for `signature_mismatch`: how many secrets). */
  details?: Readonly<Record<string, unknown>>;
  event?: unknown;
  context?: DeliveryContext;
}

/** May return a promise: a rejection is logged, never left unhandled. */
export type ErrorHandler = ErrorListener<ReceiveErrorInfo>;

const HANDLER_FAILED = "A handler failed; not marked done, so a retry runs it again.";
const RETRY_LATER = { headers: { "retry-after": "5" } };
const OBJECT_BUSY = { headers: { "retry-after": "2" } };
const OVERLOADED = "More deliveries in flight than this receiver takes at once (maxConcurrentDeliveries); retry later.";
const STORE_FULL = "Too many deliveries in flight or recently handled to remember another; retry later.";
const NO_SECRETS: readonly string[] = [];
const MAX_WARNED_ENDPOINTS = 1000;

/** What one traced delivery learns on its way, for its outcome (only while something listens for outcomes). */
interface Trace {
  startedAt: number;
  target: RequestTarget | undefined;
  endpoint: string | undefined;
  delivery: DeliveryInfo | undefined;
  handlers: HandlerRun[];
  retiredSecretIndex: number | undefined;
}

/** `onError` details of a `signature_mismatch`: what the sender is never told. */
type MismatchDetails = {
  secretsConfigured: number;
  secretsExpired: number;
  /** Set when a secret past its `notAfter` signed the delivery, inside the time window: its configured place. */
  retiredSecretIndex?: number;
};

export class Receiver<Events extends EventMap = MessageEvents> {
  readonly #options: ResolvedReceiverOptions;
  readonly #handlers = new Dispatcher<Events, DeliveryContext>();
  readonly #errorHandlers: ErrorHandler[] = [];
  readonly #outcomeListeners: OutcomeListener[] = [];
  #inFlight = 0;
  #loggedMisconfiguration = false;
  #loggedUnknownEndpoint = false;
  readonly #warnedRetiredSecret = new Set<string | undefined>();

  constructor(options: ReceiverOptions<Events>) {
    this.#options = resolveReceiverOptions(options);
  }

  /** The largest body, after decoding, that adapters read before answering 413. */
  get maxBodyBytes(): number {
    return this.#options.bodyLimits.maxBodyBytes;
  }

  /** The size and time limits for reading a body, for adapters whose framework reads it. */
  get bodyLimits(): Required<BodyLimits> {
    return this.#options.bodyLimits;
  }

  /** Runs `handler` for events of these types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type]>): this {
    this.#handlers.on(types, handler);
    return this;
  }

  /** Runs `handler` for every verified event, including types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent>): this {
    this.#handlers.onAny(handler);
    return this;
  }

  /** Hears every failure: rejected deliveries, failed handlers, an unreachable store. */
  onError(handler: ErrorHandler): this {
    this.#errorHandlers.push(handler);
    return this;
  }

  /**
   * Hears what became of every delivery once it is answered: its code and status, timings, endpoint, and each
   * handler's run. What `@tidings/opentelemetry` builds on; costs nothing while nobody listens.
   */
  onOutcome(listener: OutcomeListener): this {
    this.#outcomeListeners.push(listener);
    return this;
  }

  /** Verifies, parses, validates, deduplicates and dispatches one delivery whose body is already read. Never throws. */
  receive({ rawBody, headers, target }: IncomingDelivery): Promise<ReceiveResult> {
    return this.handle({ headers, readBody: () => rawBody, target: target && (() => target) });
  }

  /** Checks the method, reads the body through the adapter, then handles the delivery as `receive` does. Never throws. */
  handle(request: IncomingRequest): Promise<ReceiveResult> {
    return this.#outcomeListeners.length === 0 ? this.#admitted(request, undefined) : this.#traced(request);
  }

  /** Sheds a delivery past `maxConcurrentDeliveries` before its body is read; counts the others until answered. */
  #admitted(request: IncomingRequest, trace: Trace | undefined): Promise<ReceiveResult> {
    if (this.#inFlight >= this.#options.maxConcurrentDeliveries) {
      return Promise.resolve(errorResult("overloaded", OVERLOADED, RETRY_LATER));
    }
    this.#inFlight++;
    const answer = this.#process(request, trace);
    answer.then(this.#settled, this.#settled);
    return answer;
  }

  readonly #settled = () => {
    this.#inFlight--;
  };

  async #traced(request: IncomingRequest): Promise<ReceiveResult> {
    const trace: Trace = {
      startedAt: preciseNow(),
      target: undefined,
      endpoint: undefined,
      delivery: undefined,
      handlers: [],
      retiredSecretIndex: undefined,
    };
    const result = await this.#admitted(request, trace);
    const durationMs = preciseNow() - trace.startedAt;
    const outcome: DeliveryOutcome = {
      code: result.code,
      status: result.status,
      method: request.method,
      target: trace.target ?? (await this.#targetOf(request)),
      endpoint: trace.endpoint,
      delivery: trace.delivery,
      startedAt: trace.startedAt,
      durationMs,
      // A copy: handlers still running past handlerTimeoutMs settle after the answer.
      handlers: trace.handlers.slice(),
      retiredSecretIndex: trace.retiredSecretIndex,
    };
    notifyListeners(this.#outcomeListeners, [outcome], this.#options.logger);
    return result;
  }

  /** The adapter's description of the target, or undefined if it has none or failed to give one. */
  async #targetOf(request: IncomingRequest): Promise<RequestTarget | undefined> {
    try {
      return await request.target?.();
    } catch {
      return undefined;
    }
  }

  /**
   * Checks the method, reads the body through the adapter, then verifies, parses, validates, deduplicates and
   * dispatches the delivery. Never throws. One async function on purpose, awaiting only promises: with node:crypto,
   * a synchronous store (MemoryStore) and synchronous handlers, a delivery whose body is at hand runs in one turn,
   * and no promise is handed up through another async function.
   */
  async #process(request: IncomingRequest, trace: Trace | undefined): Promise<ReceiveResult> {
    const { method } = request;
    if (method !== undefined && method !== "POST" && method.toUpperCase() !== "POST") {
      return errorResult("method_not_allowed", `Deliveries are POSTed, not ${method}.`, {
        headers: { allow: "POST" },
      });
    }
    let rawBody: Uint8Array;
    try {
      const reading = request.readBody(this.#options.bodyLimits);
      rawBody = isPromiseLike(reading) ? await reading : reading;
    } catch (error) {
      return this.#failure(error);
    }
    const { headers } = request;
    const options = this.#options;
    const { toleranceSeconds } = options.verifyOptions;
    let signed: SchemeDelivery;
    try {
      signed = readDelivery(
        options.schemes,
        requirePayloadBytes(rawBody),
        headers,
        options.secrets?.values ?? NO_SECRETS,
        toleranceSeconds,
      );
    } catch (error) {
      return this.#failure(error);
    }
    // Only now, after the cheap checks, is the resolver asked (it may query a database).
    let found: EndpointSecrets;
    if (options.secrets) {
      found = { secrets: options.secrets, endpoint: undefined, dedupScope: undefined };
    } else {
      const resolving = this.#resolveEndpoint(request, trace);
      const resolved = isPromiseLike(resolving) ? await this.#withinResolverTimeout(resolving) : resolving;
      if ("status" in resolved) return resolved;
      found = resolved;
      if (trace) trace.endpoint = found.endpoint;
      // The endpoint's sender signs by the scheme the resolver names: read the request by it.
      if (found.scheme && found.scheme !== signed.scheme) {
        try {
          signed = readDelivery([found.scheme], signed.content.payload, headers, NO_SECRETS, toleranceSeconds);
        } catch (error) {
          return this.#failure(error);
        }
      }
    }
    const { scheme } = signed;
    const { secrets, endpoint, dedupScope } = found;
    // With deadlines (`notAfter`), only the secrets still valid verify; `secretIndex` still counts configured ones.
    const active = secrets.notAfter && activeSecrets(secrets.values, secrets.notAfter, options.nowMs());
    signed.secrets = active ? active.values : secrets.values;
    let event: unknown;
    let context: DeliveryContext;
    try {
      const checked = matchSignature(signed, options.verifyOptions);
      const verified = checked instanceof Promise ? await checked : checked;
      const parsed = parseEvent(signed.content.payload);
      // A handshake the scheme answers itself (Slack's url_verification): no dedup, no handlers.
      const answer = scheme.respond?.(parsed);
      if (answer) return answer;
      const type = (options.typeOf ?? scheme.typeOf)(parsed, headers);
      if (type === undefined) {
        throw new WebhookVerificationError("invalid_payload", "The event has no string `type`.");
      }
      event = parsed;
      const schema = options.schemas.get(type);
      if (schema) {
        const validated = await validateEvent(schema, parsed, type);
        if ("error" in validated) return this.#failure(validated.error, { event }, validated.issues);
        event = validated.value;
      }
      const id = (options.idOf ?? scheme.idOf)(parsed, signed.content.payload, headers);
      const key = id === undefined ? `signature:${verified.signature}` : `event:${id}`;
      context = {
        type,
        // Two scopes (endpoints, unless the resolver says otherwise) never suppress each other's events; the scope is
        // encoded, so no scope can forge another's key.
        deliveryKey: dedupScope === undefined ? key : endpointKey(dedupScope, key),
        timestamp: verified.timestamp,
        secretIndex: active ? (active.indexes[verified.secretIndex] as number) : verified.secretIndex,
        endpoint,
        verifiedBody: signed.content.payload,
        headers,
      };
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== "signature_mismatch") return this.#failure(error, { event });
      const details: MismatchDetails = {
        secretsConfigured: secrets.values.length,
        secretsExpired: secrets.values.length - signed.secrets.length,
      };
      if (active && details.secretsExpired > 0) {
        const retired = await retiredSecretIndex(signed, secrets.values, active, options.verifyOptions);
        if (retired !== undefined) {
          details.retiredSecretIndex = retired;
          if (trace) trace.retiredSecretIndex = retired;
          this.#warnRetiredSecret(retired, endpoint);
        }
      }
      return this.#failure(error, { event }, undefined, details);
    }
    if (trace) trace.delivery = context;
    const { store, leaseMs } = options;
    const { deliveryKey } = context;
    // An ordered event's object is scoped as its dedup key is: two endpoints never share an object.
    const ordering = options.order;
    const order =
      ordering &&
      positionOf(ordering.rule, event, (object) =>
        dedupScope === undefined ? object : endpointKey(dedupScope, object),
      );
    let claim: OrderedClaimResult;
    try {
      const claiming =
        ordering && order
          ? claimInOrder(ordering.store, deliveryKey, leaseMs, order, options.doneTtlMs, ordering.waitMs)
          : store.claim(deliveryKey, leaseMs);
      claim = isPromiseLike(claiming) ? await claiming : claiming;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === "store_full") {
        // The store warned once when it filled up; one log line per refused delivery would flood the logs. By code,
        // not class: any store may refuse this way, and a second copy of core has a second class.
        this.#report(error, { code: "store_full", status: 503, event, context }, false);
        return errorResult("store_full", STORE_FULL, RETRY_LATER);
      }
      this.#report(error, { code: "store_unavailable", status: 503, event, context });
      return errorResult("store_unavailable", "Delivery store unreachable; nothing was processed.", RETRY_LATER);
    }
    if (claim.state === "done") return DUPLICATE;
    if (claim.state === "in-flight") {
      return errorResult("delivery_in_progress", "Being processed by another request; retry later.", RETRY_LATER);
    }
    if (claim.state === "stale") return STALE;
    if (claim.state === "busy") {
      return errorResult("object_busy", "Another event of the same object is being handled; retry later.", OBJECT_BUSY);
    }
    const running = this.#handlers.dispatch(event, context, trace?.handlers);
    if (!(running instanceof Promise)) return this.#conclude(running, claim.token, event, context, order);
    return this.#withinHandlerTimeout(
      running.then((failures) => this.#conclude(failures, claim.token, event, context, order)),
      event,
      context,
    );
  }

  /** Marks the delivery done, or releases it when a handler failed, and says what to answer. Sync with a sync store. */
  #conclude(
    failures: unknown[],
    token: string,
    event: unknown,
    context: DeliveryContext,
    order: ObjectPosition | undefined,
  ) {
    const { store, doneTtlMs } = this.#options;
    const { deliveryKey } = context;
    // After the handlers ran, answering 5xx for the store alone would make the sender run them twice.
    const storeFailed = (error: unknown) =>
      this.#report(error, { code: "store_unavailable", status: failures.length > 0 ? 500 : 200, event, context });
    const answer = () => this.#answer(failures, event, context);
    const ordered = order && this.#options.order?.store;
    // The position moves only when the handlers succeeded: a failed event's retry is not stale.
    const settle = () =>
      ordered
        ? failures.length > 0
          ? ordered.releaseInOrder(deliveryKey, token, order as ObjectPosition)
          : ordered.completeInOrder(deliveryKey, token, doneTtlMs, order as ObjectPosition)
        : failures.length > 0
          ? store.release(deliveryKey, token)
          : store.complete(deliveryKey, token, doneTtlMs);
    try {
      const settling = settle();
      if (isPromiseLike(settling)) {
        return Promise.resolve(settling).then(answer, (error) =>
          this.#settleAgain(settle, error).then(answer, (lastError) => {
            storeFailed(lastError);
            return answer();
          }),
        );
      }
    } catch (error) {
      storeFailed(error);
    }
    return answer();
  }

  /**
   * Retries marking a delivery done (or released) while its claim still holds: a store that is failing over (a Redis
   * master's replica taking over) is back within seconds, and a done mark never written would let a later copy of
   * the event run its handlers again. Gives up after half the lease, leaving the claim to expire.
   */
  async #settleAgain(settle: () => unknown, error: unknown): Promise<void> {
    const deadline = Date.now() + this.#options.leaseMs / 2;
    for (let wait = 50; Date.now() + wait < deadline; wait = Math.min(wait * 2, 1000)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        await settle();
        return;
      } catch (again) {
        error = again;
      }
    }
    throw error;
  }

  #answer(failures: unknown[], event: unknown, context: DeliveryContext): ReceiveResult {
    if (failures.length === 0) return ACCEPTED;
    for (const failure of failures) this.#report(failure, { code: "handler_failed", status: 500, event, context });
    return errorResult("handler_failed", HANDLER_FAILED);
  }

  /**
   * Answers 503 once the handlers outlast `handlerTimeoutMs`. The claim stays held until they settle (then `#conclude`
   * completes or releases it as usual), so a retry meanwhile gets 409 and never runs them a second time alongside.
   */
  #withinHandlerTimeout(concluded: Promise<ReceiveResult>, event: unknown, context: DeliveryContext) {
    const { handlerTimeoutMs } = this.#options;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ReceiveResult>((resolve) => {
      timer = setTimeout(() => {
        const error = new Error(`Handlers still running after ${handlerTimeoutMs} ms (handlerTimeoutMs).`);
        this.#report(error, { code: "handler_timeout", status: 503, event, context });
        resolve(errorResult("handler_timeout", "The handlers did not finish in time; retry later.", RETRY_LATER));
      }, handlerTimeoutMs);
    });
    return Promise.race([concluded.finally(() => clearTimeout(timer)), timedOut]);
  }

  /**
   * The endpoint's secrets from the resolver, or the answer when it knows none (404) or failed (503). Synchronous when
   * the adapter's target and the resolver are, so a sync resolver adds no turn to the delivery.
   */
  #resolveEndpoint(
    request: IncomingRequest,
    trace: Trace | undefined,
  ): EndpointSecrets | ReceiveResult | Promise<EndpointSecrets | ReceiveResult> {
    try {
      const target = request.target ? request.target() : UNKNOWN_TARGET;
      return isPromiseLike(target)
        ? Promise.resolve(target).then(
            (known) => this.#askResolver(known, request.headers, trace),
            (error: unknown) => this.#resolverFailed(error),
          )
        : this.#askResolver(target, request.headers, trace);
    } catch (error) {
      return this.#resolverFailed(error);
    }
  }

  #askResolver(
    target: RequestTarget,
    headers: HeaderSource,
    trace: Trace | undefined,
  ): EndpointSecrets | ReceiveResult | Promise<EndpointSecrets | ReceiveResult> {
    if (trace) trace.target = target;
    const resolver = this.#options.resolveSecret as SecretResolver;
    try {
      const found = resolveEndpoint(resolver, target, headers);
      return isPromiseLike(found)
        ? found.then(
            (known) => known ?? this.#unknownEndpoint(target),
            (error: unknown) => this.#resolverFailed(error),
          )
        : (found ?? this.#unknownEndpoint(target));
    } catch (error) {
      return this.#resolverFailed(error);
    }
  }

  /**
   * Answers 503 once the resolver (or the adapter's target) outlasts `resolverTimeoutMs`. It runs for forged requests
   * too, so a lookup that never settles would otherwise hold each one, and its body, for good. What it settles to
   * later is dropped.
   */
  #withinResolverTimeout(
    resolving: Promise<EndpointSecrets | ReceiveResult>,
  ): Promise<EndpointSecrets | ReceiveResult> {
    const { resolverTimeoutMs } = this.#options;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ReceiveResult>((resolve) => {
      timer = setTimeout(() => {
        const error = new Error(
          `The secret resolver did not settle within ${resolverTimeoutMs} ms (resolverTimeoutMs).`,
        );
        resolve(this.#resolverFailed(error));
      }, resolverTimeoutMs);
    });
    return Promise.race([resolving.finally(() => clearTimeout(timer)), timedOut]);
  }

  #resolverFailed(error: unknown): ReceiveResult {
    this.#report(error, { code: "secret_unavailable", status: 503 });
    return errorResult("secret_unavailable", "The endpoint's secret could not be looked up; retry later.", RETRY_LATER);
  }

  #unknownEndpoint(target: RequestTarget): ReceiveResult {
    const message = `No endpoint is configured for ${target.path || "this request"}: the secret resolver returned none.`;
    if (!this.#loggedUnknownEndpoint) {
      // Once: a sender (or a scanner) hitting unknown paths must not flood the logs.
      this.#loggedUnknownEndpoint = true;
      this.#options.logger.warn({ message: `[tidings] ${message}`, code: "unknown_endpoint", path: target.path });
    }
    this.#report(new Error(message), { code: "unknown_endpoint", status: 404 }, false);
    return errorResult("unknown_endpoint", "No endpoint is configured here.");
  }

  /** Once per endpoint: each refused delivery reaches `onError` and the outcome, and a sender retries many times. */
  #warnRetiredSecret(secretIndex: number, endpoint: string | undefined): void {
    const warned = this.#warnedRetiredSecret;
    if (warned.has(endpoint)) return;
    // Labels come from the resolver, which may echo the path: a holder of a leaked old secret must not grow this.
    if (warned.size >= MAX_WARNED_ENDPOINTS) warned.clear();
    warned.add(endpoint);
    this.#options.logger.warn({
      message: `[tidings] Signed with secret ${secretIndex}, past its notAfter: the sender still uses it (answered signature_mismatch).`,
      code: "retired_secret",
      secretIndex,
      endpoint,
    });
  }

  #failure(
    error: unknown,
    about: { event?: unknown } = {},
    issues?: readonly unknown[],
    details?: Readonly<Record<string, unknown>>,
  ): ReceiveResult {
    if (error instanceof WebhookVerificationError) {
      if (error.code === "body_already_parsed" && !this.#loggedMisconfiguration) {
        this.#loggedMisconfiguration = true;
        this.#options.logger.error({ message: `[tidings] ${error.message}`, code: error.code });
      }
      this.#report(error, { code: error.code, status: error.status, ...about, ...(details && { details }) }, false);
      return errorResult(error.code, error.message, { issues });
    }
    this.#report(error, { code: "internal_error", status: 500, ...about });
    return errorResult("internal_error", "Unexpected failure; see the server logs.");
  }

  /** Tells `onError` subscribers; failures of ours nobody subscribed to go to the logger. */
  #report(error: unknown, info: ReceiveErrorInfo, logWhenUnheard = true): void {
    if (this.#errorHandlers.length === 0) {
      if (logWhenUnheard) {
        const { code, status, context } = info;
        this.#options.logger.error({
          message: `[tidings] ${code}: answered ${status}`,
          code,
          status,
          ...(context && { type: context.type, deliveryKey: context.deliveryKey }),
          err: errorFacts(error),
        });
      }
      return;
    }
    notifyListeners(this.#errorHandlers, [error, info], this.#options.logger);
  }
}

/** Creates a Receiver: verified, typed, deduplicated delivery events. Throws TypeError on a bad option. */
export function createReceiver<Events extends EventMap = MessageEvents>(
  options: ReceiverOptions<Events>,
): Receiver<Events> {
  return new Receiver<Events>(options);
}
