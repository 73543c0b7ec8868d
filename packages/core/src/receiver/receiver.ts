import { SIGNATURE_HEADER } from "../constants";
import { WebhookVerificationError } from "../errors";
import { type DeliveryEvent, parseEvent } from "../event";
import { type HeaderSource, headerValue } from "../http/headers";
import { ACCEPTED, DUPLICATE, errorResult, type ReceiveErrorCode, type ReceiveResult } from "../http/result";
import { requirePayloadBytes } from "../payload";
import type { ClaimResult } from "../store/delivery-store";
import { prepareChecked } from "../verification";
import { checkPrepared } from "../verify-async";
import { Dispatcher, type ErrorListener } from "./dispatch";
import type { EventMap, MessageEvents } from "./events";
import type { AnyEvent, DeliveryContext, Handler } from "./handlers";
import { type ReceiverOptions, type ResolvedReceiverOptions, resolveReceiverOptions } from "./options";
import { isPromiseLike } from "./promise-like";
import { validateEvent } from "./validation";

/** A delivery whose body an adapter has already read. */
export interface IncomingDelivery {
  rawBody: Uint8Array;
  headers: HeaderSource;
}

/** A request as an adapter sees it: the Receiver decides whether and how far to read the body. */
export interface IncomingRequest {
  method?: string | undefined;
  headers: HeaderSource;
  /** May answer synchronously when the bytes are already at hand (a body parser's buffer). */
  readBody(maxBodyBytes: number): Uint8Array | Promise<Uint8Array>;
}

/** Passed to `onError` handlers with every failure: what the sender was answered, and about which event. */
export interface ReceiveErrorInfo {
  code: ReceiveErrorCode;
  status: number;
  event?: unknown;
  context?: DeliveryContext;
}

export type ErrorHandler = ErrorListener<ReceiveErrorInfo>;

const HANDLER_FAILED = "A handler failed; not marked done, so a retry runs it again.";
const RETRY_LATER = { headers: { "retry-after": "5" } };

export class Receiver<Events extends EventMap = MessageEvents> {
  readonly #options: ResolvedReceiverOptions;
  readonly #handlers = new Dispatcher<Events, DeliveryContext>();
  readonly #errorHandlers: ErrorHandler[] = [];
  #loggedMisconfiguration = false;

  constructor(options: ReceiverOptions<Events>) {
    this.#options = resolveReceiverOptions(options);
  }

  /** The largest body, after decoding, that adapters read before answering 413. */
  get maxBodyBytes(): number {
    return this.#options.maxBodyBytes;
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

  /** Verifies, parses, validates, deduplicates and dispatches one delivery whose body is already read. Never throws. */
  receive({ rawBody, headers }: IncomingDelivery): Promise<ReceiveResult> {
    return this.handle({ headers, readBody: () => rawBody });
  }

  /**
   * Checks the method, reads the body through the adapter, then verifies, parses, validates, deduplicates and
   * dispatches the delivery. Never throws. One async function on purpose, awaiting only promises: with node:crypto,
   * a synchronous store (MemoryStore) and synchronous handlers, a delivery whose body is at hand runs in one turn,
   * and no promise is handed up through another async function.
   */
  async handle(request: IncomingRequest): Promise<ReceiveResult> {
    const { method } = request;
    if (method !== undefined && method !== "POST" && method.toUpperCase() !== "POST") {
      return errorResult(405, "method_not_allowed", `Deliveries are POSTed, not ${method}.`, {
        headers: { allow: "POST" },
      });
    }
    let rawBody: Uint8Array;
    try {
      const reading = request.readBody(this.#options.maxBodyBytes);
      rawBody = isPromiseLike(reading) ? await reading : reading;
    } catch (error) {
      return this.#failure(error);
    }
    const { headers } = request;
    const options = this.#options;
    let event: unknown;
    let context: DeliveryContext;
    try {
      const prepared = prepareChecked(
        requirePayloadBytes(rawBody),
        headerValue(headers, SIGNATURE_HEADER),
        options.secrets,
        options.verifyOptions.toleranceSeconds,
      );
      const checked = checkPrepared(prepared, options.verifyOptions);
      const verified = checked instanceof Promise ? await checked : checked;
      const parsed = parseEvent(prepared.content.payload);
      const type = options.typeOf(parsed);
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
      const id = options.idOf(parsed);
      context = {
        type,
        deliveryKey: id === undefined ? `signature:${verified.signature}` : `event:${id}`,
        timestamp: verified.timestamp,
        secretIndex: verified.secretIndex,
        rawBody: prepared.content.payload,
        headers,
      };
    } catch (error) {
      return this.#failure(error, { event });
    }
    const { store, leaseMs, doneTtlMs } = options;
    const { deliveryKey } = context;
    let claim: ClaimResult;
    try {
      const claiming = store.claim(deliveryKey, leaseMs);
      claim = isPromiseLike(claiming) ? await claiming : claiming;
    } catch (error) {
      this.#report(error, { code: "store_unavailable", status: 503, event, context });
      return errorResult(503, "store_unavailable", "Delivery store unreachable; nothing was processed.", RETRY_LATER);
    }
    if (claim.state === "done") return DUPLICATE;
    if (claim.state === "in-flight") {
      return errorResult(409, "delivery_in_progress", "Being processed by another request; retry later.", RETRY_LATER);
    }
    const running = this.#handlers.dispatch(event, context);
    const failures = running instanceof Promise ? await running : running;
    try {
      const settling =
        failures.length > 0
          ? store.release(deliveryKey, claim.token)
          : store.complete(deliveryKey, claim.token, doneTtlMs);
      if (isPromiseLike(settling)) await settling;
    } catch (error) {
      // After the handlers ran, answering 5xx for the store alone would make the sender run them twice.
      this.#report(error, { code: "store_unavailable", status: failures.length > 0 ? 500 : 200, event, context });
    }
    if (failures.length === 0) return ACCEPTED;
    for (const failure of failures) this.#report(failure, { code: "handler_failed", status: 500, event, context });
    return errorResult(500, "handler_failed", HANDLER_FAILED);
  }

  #failure(error: unknown, about: { event?: unknown } = {}, issues?: readonly unknown[]): ReceiveResult {
    if (error instanceof WebhookVerificationError) {
      if (error.code === "body_already_parsed" && !this.#loggedMisconfiguration) {
        this.#loggedMisconfiguration = true;
        this.#options.logger.error(`[tidings] ${error.message}`);
      }
      this.#report(error, { code: error.code, status: error.status, ...about }, false);
      return errorResult(error.status, error.code, error.message, { issues });
    }
    this.#report(error, { code: "internal_error", status: 500, ...about });
    return errorResult(500, "internal_error", "Unexpected failure; see the server logs.");
  }

  /** Tells `onError` subscribers; failures of ours nobody subscribed to go to the logger. */
  #report(error: unknown, info: ReceiveErrorInfo, logWhenUnheard = true): void {
    if (this.#errorHandlers.length === 0) {
      if (logWhenUnheard) this.#options.logger.error("[tidings]", info.code, error);
      return;
    }
    for (const handler of this.#errorHandlers) {
      try {
        handler(error, info);
      } catch (handlerError) {
        this.#options.logger.error("[tidings] an onError handler threw", handlerError);
      }
    }
  }
}

/** Creates a Receiver: verified, typed, deduplicated delivery events. Throws TypeError on a bad option. */
export function createReceiver<Events extends EventMap = MessageEvents>(
  options: ReceiverOptions<Events>,
): Receiver<Events> {
  return new Receiver<Events>(options);
}
