import { READING_BODIES } from "../body/body-watch";
import type { BodyLimits } from "../body/limits";
import { EndpointLookup } from "../endpoint/endpoint-lookup";
import type { RequestTarget, TargetSource } from "../endpoint/request-target";
import type { EndpointSecrets } from "../endpoint/secret-resolver";
import { type ActiveSecrets, activeSecrets } from "../endpoint/secret-set";
import { type ErrorCode, STATUS_BY_CODE, WebhookVerificationError } from "../errors";
import { type DeliveryEvent, parseEvent } from "../event";
import type { HeaderSource } from "../http/headers";
import { ACCEPTED, DUPLICATE, errorResult, RETRY_LATER, type ReceiveResult, STALE } from "../http/result";
import { readDelivery, type SchemeDelivery } from "../schemes/receive";
import type { Scheme } from "../schemes/scheme";
import type { ObjectPosition, OrderedClaimResult } from "../store/delivery-store";
import { renewWhileRunning } from "../store/lease-renewal";
import { settleWithin } from "../store/settle-within";
import { requirePayloadBytes } from "../verification/payload";
import type { VerifiedDelivery } from "../verification/signed-delivery";
import { matchSignature } from "../verification/verify-async";
import { Admission, type DeliverySlot } from "./admission";
import { deliveryKeyOf, endpointKey } from "./delivery-key";
import { Dispatcher, type ErrorListener, notifyListeners } from "./dispatcher";
import type { EventMap, MessageEvents } from "./events";
import type { AnyEvent, DeliveryContext, Handler } from "./handlers";
import { errorFacts } from "./logger";
import { type ReceiverOptions, type ResolvedReceiverOptions, resolveReceiverOptions } from "./options";
import { claimInOrder, positionOf } from "./order";
import { type DeliveryOutcome, type OutcomeListener, preciseNow } from "./outcome";
import { isPromiseLike } from "./promise-like";
import { retiredSecretIndex } from "./retired-secret";
import { TIMED_OUT, withTimeLimit } from "./time-limit";
import { startTrace, type Trace } from "./trace";
import { validateEvent } from "./validation";

/**
 * A delivery whose body an adapter has already read.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { IncomingDelivery } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // A delivery an edge function stored as it came, handled later: its bytes, its headers, where it was sent.
 * export function handleStored(stored: { body: string; headers: Record<string, string>; path: string }) {
 *   const delivery: IncomingDelivery = {
 *     rawBody: Buffer.from(stored.body, "base64"),
 *     headers: stored.headers,
 *     target: { path: stored.path, params: {} },
 *   };
 *   return receiver.receive(delivery);
 * }
 * ```
 */
export interface IncomingDelivery {
  rawBody: Uint8Array;
  headers: HeaderSource;
  /** Where it was sent: what a secret resolver and outcome listeners are told. */
  target?: RequestTarget | undefined;
}

/**
 * A request as an adapter sees it: the Receiver decides whether and how far to read the body.
 *
 * @example
 * ```ts
 * import type { Request } from "@hapi/hapi";
 * import { createReceiver } from "@tidings/core";
 * import type { IncomingRequest } from "@tidings/core/adapter";
 * import { decodeWireBody } from "@tidings/core/node";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // A Hapi route with payload: { parse: false, output: "data" }: the bytes as sent, Content-Encoding still applied.
 * function incoming(request: Request): IncomingRequest {
 *   const { headers } = request.raw.req;
 *   return {
 *     method: request.method,
 *     headers,
 *     readBody: ({ maxBodyBytes }) => decodeWireBody(request.payload as Buffer, headers, maxBodyBytes),
 *   };
 * }
 *
 * export const handle = (request: Request) => receiver.handle(incoming(request));
 * ```
 */
export interface IncomingRequest {
  method?: string | undefined;
  headers: HeaderSource;
  /** May answer synchronously when the bytes are already at hand (a body parser's buffer). */
  readBody(limits: Required<BodyLimits>): Uint8Array | Promise<Uint8Array>;
  /** Where the request was sent; asked only when a secret resolver or an outcome listener needs it. */
  target?: TargetSource | undefined;
  /** A slot taken with `receiver.admit()` before the framework read the body; `handle` then takes none of its own. */
  slot?: DeliverySlot | undefined;
}

/**
 * Passed to `onError` handlers with every failure: what the sender was answered, and about which event.
 *
 * @example
 * ```ts
 * import { createReceiver, type ReceiveErrorInfo } from "@tidings/core";
 *
 * function report(error: unknown, info: ReceiveErrorInfo) {
 *   console.error(`webhook answered ${info.status} ${info.code}`, info.context?.deliveryKey, info.details, error);
 * }
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onError(report);
 * ```
 */
export interface ReceiveErrorInfo {
  code: ErrorCode;
  status: number;
  /** Facts for the app's logs, kept out of the answer the sender sees (for `signature_mismatch`: how many secrets). */
  details?: Readonly<Record<string, unknown>>;
  event?: unknown;
  context?: DeliveryContext;
}

const HANDLER_FAILED = "A handler failed; not marked done, so a retry runs it again.";
const OBJECT_BUSY = { headers: { "retry-after": "2" } };
const OVERLOADED = "More deliveries in flight than this receiver takes at once (maxConcurrentDeliveries); retry later.";
const STORE_FULL = "Too many deliveries in flight or recently handled to remember another; retry later.";
const NO_SECRETS: readonly string[] = [];
const MAX_WARNED_ENDPOINTS = 1000;
const SHED_WARNING_EVERY_MS = 60_000;

/** What `onError` is told: the status is the code's, unless the sender was answered otherwise. */
type Report = Omit<ReceiveErrorInfo, "status"> & { status?: number };

/** A verified delivery's event as its scheme reads it, before validation. */
interface ReadEvent {
  parsed: DeliveryEvent;
  type: string;
  id: string | undefined;
}

/** The value handlers get (wrapped: an event is a JSON object, which could look like an answer), or the answer. */
type Validated = { value: unknown } | ReceiveResult;

/** `onError` details of a `signature_mismatch`: what the sender is never told. */
type MismatchDetails = {
  secretsConfigured: number;
  secretsExpired: number;
  /** Set when a secret past its `notAfter` signed the delivery, inside the time window: its configured place. */
  retiredSecretIndex?: number;
};

/** A result rather than a step's value: the delivery is answered with it. */
function isAnswer(value: object): value is ReceiveResult {
  return "body" in value;
}

/** The answer to a delivery whose claim was not granted: done before, held by another request, stale, or busy. */
function unclaimedAnswer(state: "done" | "in-flight" | "stale" | "busy"): ReceiveResult {
  if (state === "done") return DUPLICATE;
  if (state === "stale") return STALE;
  return state === "busy"
    ? errorResult("object_busy", "Another event of the same object is being handled; retry later.", OBJECT_BUSY)
    : errorResult("delivery_in_progress", "Being processed by another request; retry later.", RETRY_LATER);
}

/**
 * Verifies, deduplicates and dispatches deliveries to typed handlers; adapters mount it. Made by `createReceiver`.
 *
 * @example
 * ```ts
 * import { createReceiver, type Receiver } from "@tidings/core";
 *
 * // Handlers registered in a module of their own, on the app's Receiver.
 * export function registerBilling(receiver: Receiver): Receiver {
 *   return receiver.on("message.failed", (event) => console.log("refund the message", event.data.id));
 * }
 *
 * export const receiver = registerBilling(createReceiver({ secret: process.env.WEBHOOK_SECRET! }));
 * ```
 */
export class Receiver<Events extends EventMap = MessageEvents> {
  readonly #options: ResolvedReceiverOptions;
  readonly #handlers = new Dispatcher<Events, DeliveryContext>();
  readonly #errorHandlers: ErrorListener[] = [];
  readonly #outcomeListeners: OutcomeListener[] = [];
  /** The fixed secrets' endpoint, or the resolver's lookup: one of the two is configured. */
  readonly #configured: EndpointSecrets | undefined;
  readonly #lookup: EndpointLookup | undefined;
  readonly #admission: Admission;
  /** The options' body limits, carrying the bodies being read: a read may be asked to yield its slot. */
  readonly #bodyLimits: Required<BodyLimits>;
  #loggedMisconfiguration = false;
  #lastShedWarning = Number.NEGATIVE_INFINITY;
  readonly #warnedRetiredSecret = new Set<string | undefined>();

  constructor(options: ReceiverOptions<Events>) {
    const resolved = resolveReceiverOptions(options);
    this.#options = resolved;
    this.#admission = new Admission(resolved.maxConcurrentDeliveries);
    this.#bodyLimits = { ...resolved.bodyLimits, [READING_BODIES]: this.#admission } as Required<BodyLimits>;
    const { secrets, resolveSecret, resolverTimeoutMs, logger, schemes } = resolved;
    this.#configured = secrets && { secrets, endpoint: undefined, dedupScope: undefined };
    this.#lookup =
      resolveSecret &&
      new EndpointLookup(
        resolveSecret,
        resolverTimeoutMs,
        logger,
        (error, code, logged) => this.#report(error, { code }, !logged),
        schemes,
      );
  }

  /** The largest body, after decoding, that adapters read before answering 413. */
  get maxBodyBytes(): number {
    return this.#options.bodyLimits.maxBodyBytes;
  }

  /** The size and time limits for reading a body, for adapters whose framework reads it. */
  get bodyLimits(): Required<BodyLimits> {
    return this.#bodyLimits;
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
  onError(handler: ErrorListener): this {
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

  /**
   * Takes a delivery slot before the body is read, for an adapter whose framework reads it before the handler runs
   * (Fastify's content-type parser): pass it to `handle` as `slot`, and release it on any path that never gets there.
   * Not admitted past `maxConcurrentDeliveries`; `handle` then answers 503 `overloaded`.
   */
  admit(): DeliverySlot {
    return this.#admission.slot();
  }

  /** Sheds a delivery past `maxConcurrentDeliveries` before its body is read; counts the others until answered. */
  #admitted(request: IncomingRequest, trace: Trace | undefined): Promise<ReceiveResult> {
    const { slot } = request;
    if (slot ? !slot.admitted : !this.#admission.take()) return Promise.resolve(this.#shed());
    const answer = this.#process(request, trace);
    const settled = slot ? slot.release : this.#settled;
    answer.then(settled, settled);
    return answer;
  }

  readonly #settled = () => {
    this.#admission.release();
  };

  /**
   * The answer to a delivery past `maxConcurrentDeliveries`, told to `onError`; without listeners, a warning at most
   * once a minute, as shedding comes in bursts of thousands.
   */
  #shed(): ReceiveResult {
    const { maxConcurrentDeliveries } = this.#options;
    const error = new Error(`All ${maxConcurrentDeliveries} delivery slots (maxConcurrentDeliveries) in use.`);
    this.#report(error, { code: "overloaded" }, false);
    const now = this.#options.nowMs();
    if (this.#errorHandlers.length === 0 && now - this.#lastShedWarning >= SHED_WARNING_EVERY_MS) {
      this.#lastShedWarning = now;
      this.#options.logger.warn({ message: `[tidings] overloaded: ${error.message}`, code: "overloaded" });
    }
    return errorResult("overloaded", OVERLOADED, RETRY_LATER);
  }

  async #traced(request: IncomingRequest): Promise<ReceiveResult> {
    const trace = startTrace();
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
   * The pipeline: check the method, read the body, read the scheme's headers, find the endpoint, verify, read and
   * validate the event, claim it, run the handlers. Never throws. One async function on purpose, each step sync
   * unless its work is not: with node:crypto, a synchronous store (MemoryStore) and synchronous handlers, a delivery
   * whose body is at hand runs in one turn, and no promise is handed up through another async function.
   */
  async #process(request: IncomingRequest, trace: Trace | undefined): Promise<ReceiveResult> {
    const { method, headers } = request;
    if (method !== undefined && method !== "POST" && method.toUpperCase() !== "POST") {
      return errorResult("method_not_allowed", `Deliveries are POSTed, not ${method}.`, { headers: { allow: "POST" } });
    }
    let rawBody: Uint8Array;
    try {
      const reading = request.readBody(this.#bodyLimits);
      rawBody = isPromiseLike(reading) ? await reading : reading;
    } catch (error) {
      return this.#failure(error);
    }
    const signedBy = this.#readSigned(this.#options.schemes, rawBody, headers);
    if (isAnswer(signedBy)) return signedBy;
    // Only now, after the cheap checks, is the resolver asked (it may query a database).
    const finding = this.#configured ?? (this.#lookup as EndpointLookup).find(request, trace);
    const found = isPromiseLike(finding) ? await finding : finding;
    if (isAnswer(found)) return found;
    if (trace) trace.endpoint = found.endpoint;
    const signed = this.#readByEndpointScheme(signedBy, found, headers);
    if (isAnswer(signed)) return signed;
    // With deadlines (`notAfter`), only the secrets still valid verify; `secretIndex` still counts configured ones.
    const { values, notAfter } = found.secrets;
    const active = notAfter && activeSecrets(values, notAfter, this.#options.nowMs());
    signed.secrets = active ? active.values : values;
    let verified: VerifiedDelivery;
    try {
      const checked = matchSignature(signed, this.#options.verifyOptions);
      verified = checked instanceof Promise ? await checked : checked;
    } catch (error) {
      return this.#refusedSignature(error, signed, found, active, trace);
    }
    const read = this.#readEvent(signed, headers);
    if (isAnswer(read)) return read;
    const validated = this.#validated(read);
    const event = isPromiseLike(validated) ? await validated : validated;
    if (isAnswer(event)) return event;
    const context: DeliveryContext = {
      type: read.type,
      deliveryKey: deliveryKeyOf(read.id, verified.signature, found.dedupScope),
      timestamp: verified.timestamp,
      secretIndex: active ? (active.indexes[verified.secretIndex] as number) : verified.secretIndex,
      endpoint: found.endpoint,
      verifiedBody: signed.content.payload,
      headers,
    };
    if (trace) trace.delivery = context;
    const order = this.#positionOf(event.value, found.dedupScope);
    if (order !== undefined && isAnswer(order)) return order;
    let claim: OrderedClaimResult;
    try {
      const claiming = this.#claim(context.deliveryKey, order);
      claim = isPromiseLike(claiming) ? await claiming : claiming;
    } catch (error) {
      return this.#storeRefused(error, event.value, context);
    }
    if (claim.state !== "claimed") return unclaimedAnswer(claim.state);
    return this.#run(event.value, context, claim.token, order, trace);
  }

  /** The delivery as the first of `schemes` whose headers it carries reads it, or the answer refusing it. */
  #readSigned(schemes: readonly Scheme[], body: unknown, headers: HeaderSource): SchemeDelivery | ReceiveResult {
    try {
      return readDelivery(
        schemes,
        requirePayloadBytes(body),
        headers,
        this.#options.secrets?.values ?? NO_SECRETS,
        this.#options.verifyOptions.toleranceSeconds,
      );
    } catch (error) {
      return this.#failure(error);
    }
  }

  /** The endpoint's sender signs by the scheme the resolver names: the request is read again by it. */
  #readByEndpointScheme(signed: SchemeDelivery, found: EndpointSecrets, headers: HeaderSource) {
    return found.scheme && found.scheme !== signed.scheme
      ? this.#readSigned([found.scheme], signed.content.payload, headers)
      : signed;
  }

  /** The event's JSON, type and id, or the answer: a handshake the scheme answers itself (Slack's url_verification). */
  #readEvent({ scheme, content }: SchemeDelivery, headers: HeaderSource): ReadEvent | ReceiveResult {
    let parsed: DeliveryEvent | undefined;
    try {
      parsed = parseEvent(content.payload);
      const answer = scheme.respond?.(parsed);
      if (answer) return answer;
      const type = (this.#options.typeOf ?? scheme.typeOf)(parsed, headers);
      if (type === undefined) throw new WebhookVerificationError("invalid_payload", "The event has no string `type`.");
      return { parsed, type, id: (this.#options.idOf ?? scheme.idOf)(parsed, content.payload, headers) };
    } catch (error) {
      return this.#failure(error, { event: parsed });
    }
  }

  /** The event after its type's schema, if it has one (Standard Schema): the value handlers get, or the 400. */
  #validated({ parsed, type }: ReadEvent): Validated | Promise<Validated> {
    const schema = this.#options.schemas.get(type);
    if (!schema) return { value: parsed };
    // A validator that throws is a failure of the app's code: 500, like a throwing `typeOf`.
    return validateEvent(schema, parsed, type).then(
      (validated) =>
        "error" in validated ? this.#failure(validated.error, { event: parsed }, validated.issues) : validated,
      (error: unknown) => this.#failure(error, { event: parsed }),
    );
  }

  /** Where an ordered event stands in its object's history, its object scoped as its dedup key is; 500 if `order` threw. */
  #positionOf(event: unknown, dedupScope: string | undefined): ObjectPosition | ReceiveResult | undefined {
    const ordering = this.#options.order;
    if (!ordering) return undefined;
    try {
      return positionOf(ordering.rule, event, (object) =>
        dedupScope === undefined ? object : endpointKey(dedupScope, object),
      );
    } catch (error) {
      return this.#failure(error, { event });
    }
  }

  #claim(deliveryKey: string, order: ObjectPosition | undefined) {
    const { store, leaseMs, order: ordering, doneTtlMs } = this.#options;
    return ordering && order
      ? claimInOrder(ordering.store, deliveryKey, leaseMs, order, doneTtlMs, ordering.waitMs)
      : store.claim(deliveryKey, leaseMs);
  }

  #storeRefused(error: unknown, event: unknown, context: DeliveryContext): ReceiveResult {
    if ((error as { code?: unknown } | null)?.code === "store_full") {
      // The store warned once when it filled up; one log line per refused delivery would flood the logs. By code,
      // not class: any store may refuse this way, and a second copy of core has a second class.
      this.#report(error, { code: "store_full", event, context }, false);
      return errorResult("store_full", STORE_FULL, RETRY_LATER);
    }
    this.#report(error, { code: "store_unavailable", event, context });
    return errorResult("store_unavailable", "Delivery store unreachable; nothing was processed.", RETRY_LATER);
  }

  /**
   * Runs the handlers of a claimed delivery, renewing the claim while they run, then settles it. Only the handlers are
   * timed: 503 if they outlast `handlerTimeoutMs`; settling the claim after they succeeded has its own bound.
   */
  #run(
    event: unknown,
    context: DeliveryContext,
    token: string,
    order: ObjectPosition | undefined,
    trace: Trace | undefined,
  ) {
    const running = this.#handlers.dispatch(event, context, trace?.handlers);
    if (!(running instanceof Promise)) return this.#conclude(running, token, event, context, order);
    const { store, leaseMs, handlerTimeoutMs } = this.#options;
    // The claim stays held until the handlers settle (then `#conclude` completes or releases it as usual), so a retry
    // answered meanwhile gets 409 and never runs them a second time alongside.
    const renewal = renewWhileRunning(store, context.deliveryKey, token, leaseMs, order);
    const concluded = running.then((failures) => {
      renewal.stop();
      return this.#conclude(failures, token, event, context, order);
    });
    return withTimeLimit<unknown>(running, handlerTimeoutMs, () => TIMED_OUT).then((ran) => {
      if (ran !== TIMED_OUT) return concluded;
      const error = new Error(`Handlers still running after ${handlerTimeoutMs} ms (handlerTimeoutMs).`);
      this.#report(error, { code: "handler_timeout", event, context });
      return errorResult("handler_timeout", "The handlers did not finish in time; retry later.", RETRY_LATER);
    });
  }

  /** Marks the delivery done, or releases it when a handler failed, and says what to answer. Sync with a sync store. */
  #conclude(
    failures: unknown[],
    token: string,
    event: unknown,
    context: DeliveryContext,
    order: ObjectPosition | undefined,
  ) {
    const { store, doneTtlMs, leaseMs } = this.#options;
    const { deliveryKey } = context;
    // After the handlers ran, answering 5xx for the store alone would make the sender run them twice.
    const storeFailed = (error: unknown) =>
      this.#report(error, { code: "store_unavailable", status: failures.length > 0 ? 500 : 200, event, context });
    const settled = (held: boolean) => {
      if (!held) this.#leaseLost(context, failures.length === 0);
      return this.#answer(failures, event, context);
    };
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
    let settling: boolean | PromiseLike<boolean>;
    try {
      settling = settle();
    } catch (error) {
      storeFailed(error);
      return this.#answer(failures, event, context);
    }
    if (!isPromiseLike(settling)) return settled(settling);
    // Tried again while the claim can still hold (half the lease); a store that hangs is cut off as a failing one.
    return settleWithin(settling, settle, leaseMs / 2).then(settled, (error: unknown) => {
      storeFailed(error);
      return this.#answer(failures, event, context);
    });
  }

  /**
   * The store refused to settle the claim: its lease ran out while the handlers ran and could not be renewed (the
   * store unreachable, the process paused), so another holder may have taken the delivery or its object. Nothing was
   * marked; after handlers that succeeded, the answer stays 200, as their effects happened.
   */
  #leaseLost(context: DeliveryContext, succeeded: boolean): void {
    this.#options.logger.warn({
      message: `[tidings] The claim on ${context.deliveryKey} ran out while its handlers ran; ${succeeded ? "not marked done" : "not released"}.`,
      code: "lease_lost",
      type: context.type,
      deliveryKey: context.deliveryKey,
    });
  }

  #answer(failures: unknown[], event: unknown, context: DeliveryContext): ReceiveResult {
    if (failures.length === 0) return ACCEPTED;
    for (const failure of failures) this.#report(failure, { code: "handler_failed", event, context });
    return errorResult("handler_failed", HANDLER_FAILED);
  }

  /** A signature that matched no secret, with what the app's logs need: which secrets were tried, one retired. */
  async #refusedSignature(
    error: unknown,
    signed: SchemeDelivery,
    { secrets, endpoint }: EndpointSecrets,
    active: ActiveSecrets | undefined,
    trace: Trace | undefined,
  ): Promise<ReceiveResult> {
    if ((error as { code?: unknown } | null)?.code !== "signature_mismatch") return this.#failure(error);
    const details: MismatchDetails = {
      secretsConfigured: secrets.values.length,
      secretsExpired: secrets.values.length - signed.secrets.length,
    };
    if (active && details.secretsExpired > 0) {
      const retired = await retiredSecretIndex(signed, secrets.values, active, this.#options.verifyOptions);
      if (retired !== undefined) {
        details.retiredSecretIndex = retired;
        if (trace) trace.retiredSecretIndex = retired;
        this.#warnRetiredSecret(retired, endpoint);
      }
    }
    return this.#failure(error, {}, undefined, details);
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
      this.#report(error, { code: error.code, ...about, ...(details && { details }) }, false);
      return errorResult(error.code, error.message, { issues });
    }
    this.#report(error, { code: "internal_error", ...about });
    return errorResult("internal_error", "Unexpected failure; see the server logs.");
  }

  /** Tells `onError` subscribers; failures of ours nobody subscribed to go to the logger. */
  #report(error: unknown, report: Report, logWhenUnheard = true): void {
    const info: ReceiveErrorInfo = { ...report, status: report.status ?? STATUS_BY_CODE[report.code] };
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

/**
 * Creates a Receiver: verified, typed, deduplicated delivery events. Throws TypeError on a bad option.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 *
 * const delivered = new Map<string, Date>(); // stands in for your database
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! })
 *   .on("message.delivered", (event) => delivered.set(event.data.id, new Date())) // event typed by its type
 *   .on(["message.failed", "message.sent"], (event, ctx) => console.log(ctx.type, event.data.status))
 *   .onAny((_event, ctx) => console.log("audit", ctx.deliveryKey, ctx.timestamp))
 *   .onError((error, info) => console.error(`webhook ${info.code}`, error));
 * ```
 */
export function createReceiver<Events extends EventMap = MessageEvents>(
  options: ReceiverOptions<Events>,
): Receiver<Events> {
  return new Receiver<Events>(options);
}
