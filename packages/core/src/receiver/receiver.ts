import { READING_BODIES } from "../body/body-watch";
import type { BodyLimits } from "../body/limits";
import { EndpointLookup } from "../endpoint/endpoint-lookup";
import type { RequestTarget } from "../endpoint/request-target";
import type { EndpointSecrets } from "../endpoint/secret-resolver";
import type { DeliveryEvent } from "../event";
import type { EventMap, MessageEvents } from "../event-map";
import { isPromiseLike } from "../ground/promise-like";
import { errorResult, RETRY_LATER, type ReceiveResult } from "../http/result";
import type { Transactions } from "../store/transactions";
import { Admission, type DeliverySlot } from "./admission";
import { claimDelivery } from "./claim-step";
import { deliveryKeyOf } from "./delivery-key";
import { Dispatcher, type ErrorListener, notifyListeners } from "./dispatcher";
import { readEvent, validated } from "./event-step";
import type { AnyEvent, DeliveryContext, Handler, InTransaction } from "./handlers";
import { idempotencyKey } from "./idempotency-key";
import type { IncomingDelivery, IncomingRequest } from "./incoming";
import { type ReceiverOptions, resolveReceiverOptions } from "./options";
import { type DeliveryOutcome, type OutcomeListener, preciseNow } from "./outcome";
import { isAnswer, type ReceiverParts } from "./pipeline";
import { readBody } from "./read-body";
import { Reporter } from "./reporter";
import { signedRequestFrom } from "./request-url";
import { runHandlers } from "./run-step";
import { startTrace, type Trace } from "./trace";
import { readSigned, verifySignature } from "./verify-step";

const OVERLOADED = "More deliveries in flight than this receiver takes at once (maxConcurrentDeliveries); retry later.";

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
export class Receiver<Events extends EventMap = MessageEvents, Context extends DeliveryContext = DeliveryContext> {
  readonly #parts: ReceiverParts;
  readonly #handlers = new Dispatcher<Events, DeliveryContext>();
  readonly #outcomeListeners: OutcomeListener[] = [];
  /** The fixed secrets' endpoint, or the resolver's lookup: one of the two is configured. */
  readonly #configured: EndpointSecrets | undefined;
  readonly #lookup: EndpointLookup | undefined;
  readonly #admission: Admission;
  /** The options' body limits, carrying the bodies being read: a read may be asked to yield its slot. */
  readonly #bodyLimits: Required<BodyLimits>;

  constructor(options: ReceiverOptions<Events>) {
    const resolved = resolveReceiverOptions(options);
    const reporter = new Reporter(resolved.logger);
    this.#parts = { options: resolved, reporter };
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
        (error, code, logged) => reporter.report(error, { code }, !logged),
        schemes,
      );
  }

  /** The largest body, after decoding, that adapters read before answering 413. */
  get maxBodyBytes(): number {
    return this.#parts.options.bodyLimits.maxBodyBytes;
  }

  /** The size and time limits for reading a body, for adapters whose framework reads it. */
  get bodyLimits(): Required<BodyLimits> {
    return this.#bodyLimits;
  }

  /** Runs `handler` for events of these types. Several handlers for one type all run. */
  on<Type extends keyof Events & string>(types: Type | readonly Type[], handler: Handler<Events[Type], Context>): this {
    this.#handlers.on(types, handler as unknown as Handler<Events[Type]>);
    return this;
  }

  /** Runs `handler` for every verified event, including types with no handler of their own. */
  onAny(handler: Handler<AnyEvent<Events> | DeliveryEvent, Context>): this {
    this.#handlers.onAny(handler as unknown as Handler<AnyEvent<Events> | DeliveryEvent>);
    return this;
  }

  /** Hears every failure: rejected deliveries, failed handlers, an unreachable store. */
  onError(handler: ErrorListener): this {
    this.#parts.reporter.listeners.push(handler);
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
  receive({ rawBody, headers, target, url, method }: IncomingDelivery): Promise<ReceiveResult> {
    return this.handle({ method, headers, readBody: () => rawBody, target: target && (() => target), url: () => url });
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
    const settled = slot ? slot.release : this.#released;
    answer.then(settled, settled);
    return answer;
  }

  readonly #released = () => {
    this.#admission.release();
  };

  #shed(): ReceiveResult {
    const { options, reporter } = this.#parts;
    const error = new Error(`All ${options.maxConcurrentDeliveries} delivery slots (maxConcurrentDeliveries) in use.`);
    reporter.shed(error, options.nowMs());
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
      target: trace.target ?? (await targetOf(request)),
      endpoint: trace.endpoint,
      delivery: trace.delivery,
      startedAt: trace.startedAt,
      durationMs,
      // A copy: handlers still running past handlerTimeoutMs settle after the answer.
      handlers: trace.handlers.slice(),
      retiredSecretIndex: trace.retiredSecretIndex,
    };
    notifyListeners(this.#outcomeListeners, [outcome], this.#parts.options.logger);
    return result;
  }

  /**
   * The steps of a delivery, in order: read the body, read the scheme's headers, find the endpoint, verify, read and
   * validate the event, claim it, run the handlers and settle the claim. Never throws. One async function on purpose:
   * each step is sync unless its work is not, so with node:crypto, a synchronous store (MemoryStore) and synchronous
   * handlers a delivery whose body is at hand runs in one turn, and no promise is handed up through another function.
   */
  async #process(request: IncomingRequest, trace: Trace | undefined): Promise<ReceiveResult> {
    const parts = this.#parts;
    const { headers } = request;
    const reading = readBody(parts, request, this.#bodyLimits);
    const rawBody = isPromiseLike(reading) ? await reading : reading;
    if (isAnswer(rawBody)) return rawBody;
    const signedRequest = parts.options.readsRequest ? signedRequestFrom(parts, request) : undefined;
    const signedBy = readSigned(parts, parts.options.schemes, rawBody, headers, signedRequest);
    if (isAnswer(signedBy)) return signedBy;
    // Only now, after the cheap checks, is the resolver asked (it may query a database).
    const finding = this.#configured ?? (this.#lookup as EndpointLookup).find(request, trace);
    const found = isPromiseLike(finding) ? await finding : finding;
    if (isAnswer(found)) return found;
    if (trace) trace.endpoint = found.endpoint;
    const verifying = verifySignature(parts, signedBy, rawBody, found, headers, signedRequest, trace);
    const verified = isPromiseLike(verifying) ? await verifying : verifying;
    if (isAnswer(verified)) return verified;
    const read = readEvent(parts, verified, rawBody, headers);
    if (isAnswer(read)) return read;
    const validating = validated(parts, read);
    const event = isPromiseLike(validating) ? await validating : validating;
    if (isAnswer(event)) return event;
    const { match, timestamp, secretIndex } = verified.verified;
    const { active } = verified;
    const context: DeliveryContext = {
      type: read.type,
      deliveryKey: deliveryKeyOf(read.id, match, found.dedupScope),
      timestamp,
      secretIndex: active ? (active.indexes[secretIndex] as number) : secretIndex,
      endpoint: found.endpoint,
      verifiedBody: rawBody,
      headers,
      idempotencyKey,
    };
    if (trace) trace.delivery = context;
    const claiming = claimDelivery(parts, event.value, context, found.dedupScope);
    const claim = isPromiseLike(claiming) ? await claiming : claiming;
    if (isAnswer(claim)) return claim;
    return runHandlers(parts, this.#handlers, event.value, context, claim, trace);
  }
}

/** The adapter's description of the target, or undefined if it has none or failed to give one. */
async function targetOf(request: IncomingRequest): Promise<RequestTarget | undefined> {
  try {
    return await request.target?.();
  } catch {
    return undefined;
  }
}

/**
 * Creates a Receiver whose handlers run in the delivery's database transaction (`transactions` from
 * `@tidings/postgres`): `ctx.transaction` is the library's own handle, and what handlers write through it commits with
 * the delivery's done mark, or not at all. Throws TypeError on a bad option, or a store that cannot join it.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { PostgresStore, pgTransactions } from "@tidings/postgres";
 * import pg from "pg";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * export const receiver = createReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   store: new PostgresStore({ client: pool }),
 *   transactions: pgTransactions(pool),
 * }).on("message.failed", async (event, ctx) => {
 *   // Written once per event: a rerun after a crash finds the delivery done, as this row committed with its mark.
 *   await ctx.transaction.query("insert into failures (message_id) values ($1)", [event.data.id]);
 * });
 * ```
 */
export function createReceiver<Events extends EventMap = MessageEvents, Tx = unknown>(
  options: ReceiverOptions<Events> & { transactions: Transactions<Tx> },
): Receiver<Events, DeliveryContext & InTransaction<Tx>>;
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
): Receiver<Events>;
export function createReceiver<Events extends EventMap = MessageEvents>(
  options: ReceiverOptions<Events>,
): Receiver<Events> {
  return new Receiver<Events>(options);
}
