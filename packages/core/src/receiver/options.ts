import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from "../body/limits";
import type { SecretResolver } from "../endpoint/secret-resolver";
import { type EndpointSecret, toSecretSet } from "../endpoint/secret-set";
import type { DeliveryEvent } from "../event";
import { positiveInteger } from "../positive-integer";
import { type DeliveryStore, requireOrderedStore } from "../store/delivery-store";
import { MemoryStore } from "../store/memory-store";
import { resolveTolerance, type VerifyOptions } from "../tolerance";
import type { EventMap } from "./events";
import { type Logger, safeLogger } from "./logger";
import { numberSource } from "./number-source";
import { type EventOrder, orderWaitMs } from "./order";
import type { StandardSchemaV1 } from "./standard-schema";

/** A Standard Schema validator per event type; a payload that fails its schema is refused with 400. */
export type EventSchemas<Events extends EventMap> = {
  [Type in keyof Events]?: StandardSchemaV1<unknown, Events[Type]>;
};

export interface ReceiverOptions<Events extends EventMap> extends VerifyOptions {
  /**
   * The endpoint secret, or several while rotating it (`{ value, notAfter }` retires one on schedule); or a function
   * that finds the secret(s) and an endpoint label per request, e.g. from a database.
   */
  secret: EndpointSecret | SecretResolver;
  /** Where claims and completed deliveries are kept. Default: an in-process `MemoryStore`. */
  store?: DeliveryStore;
  /** Largest accepted body after decoding, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long a client may take to send the body, in ms, before a 408. Default 10 s. */
  bodyTimeoutMs?: number;
  schemas?: EventSchemas<Events>;
  /** Reads the event type. Default: the payload's string `type` field. */
  typeOf?: (event: DeliveryEvent) => string | undefined;
  /**
   * Reads the event id used for dedup. Default: the payload's `id` field, a non-empty string or a number (one past
   * 2^53 by its exact digits in the body, as `JSON.parse` rounds it). A custom one sees numbers already rounded.
   */
  idOf?: (event: DeliveryEvent) => string | undefined;
  /** How long a claim holds while handlers run, in ms; after it another instance may take over. Default 60 s. */
  leaseMs?: number;
  /**
   * How long handlers may run before the sender is answered 503 `handler_timeout`, in ms; below `leaseMs`. The
   * claim stays held until they settle (or the lease ends), so a retry meanwhile gets 409, never a second run.
   * Default 30 s.
   */
  handlerTimeoutMs?: number;
  /**
   * How long a secret resolver may take, in ms, before the delivery is answered 503 `secret_unavailable` (the sender
   * retries). It runs before the HMAC, for any request with a well-formed signature header, forged ones included: a
   * lookup that never settles must not hold requests and their bodies. Default 5 s.
   */
  resolverTimeoutMs?: number;
  /** How long a handled delivery is remembered, in ms; at least the tolerance. Default 24 h. */
  doneTtlMs?: number;
  /** Where failures nobody subscribed to with `onError` are logged, and warnings. Default `console`. */
  logger?: Logger;
  /**
   * Per object (`key`), handlers run for one event at a time and in strictly increasing `position`, across every
   * instance sharing the store; an event at or below the handled position is answered stale. `messageStatusOrder`
   * orders the default `MessageEvents`. Needs a store that keeps order (MemoryStore, RedisStore, PostgresStore).
   */
  order?: EventOrder<Events>;
  /** How long an event waits while another event of its object is in its handlers, in ms, before 409. Default 1 s. */
  orderWaitMs?: number;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
export const DEFAULT_DONE_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_RESOLVER_TIMEOUT_MS = 5000;

const nonEmptyString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
// An id the sender wrote as a JSON number is still the event's id: without it a resend would dedup by signature. A
// number a double holds exactly (a safe integer) is its digits; any other (a 64-bit snowflake id, which JSON.parse
// rounded, so that two ids would share one key) is its exact text in the body.
const eventId = (value: unknown, body: Uint8Array) =>
  typeof value !== "number"
    ? nonEmptyString(value)
    : Number.isSafeInteger(value)
      ? String(value)
      : numberSource(body, "id");

/** Checks every option once, at setup, so a misconfiguration fails at start-up rather than per delivery. */
export function resolveReceiverOptions<Events extends EventMap>(options: ReceiverOptions<Events>) {
  const toleranceSeconds = resolveTolerance(options);
  const doneTtlMs = positiveInteger(options.doneTtlMs ?? DEFAULT_DONE_TTL_MS, "doneTtlMs");
  if (doneTtlMs < toleranceSeconds * 1000) {
    throw new TypeError("doneTtlMs must be ≥ the tolerance");
  }
  const leaseMs = positiveInteger(options.leaseMs ?? DEFAULT_LEASE_MS, "leaseMs");
  const handlerTimeoutMs = positiveInteger(
    options.handlerTimeoutMs ?? Math.min(DEFAULT_HANDLER_TIMEOUT_MS, Math.floor(leaseMs / 2)),
    "handlerTimeoutMs",
  );
  if (handlerTimeoutMs >= leaseMs) {
    throw new TypeError("handlerTimeoutMs must be below leaseMs, or a retry could run the handlers a second time");
  }
  const logger = safeLogger(options.logger ?? console);
  const storeOptions = { minRetentionMs: toleranceSeconds * 1000, logger, ...(options.now && { now: options.now }) };
  const { secret } = options;
  const store = options.store ?? new MemoryStore(storeOptions);
  return {
    // One of the two: fixed secrets, checked now, or a resolver asked per request.
    secrets: typeof secret === "function" ? undefined : toSecretSet(secret),
    resolveSecret: typeof secret === "function" ? secret : undefined,
    resolverTimeoutMs: positiveInteger(options.resolverTimeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS, "resolverTimeoutMs"),
    nowMs: options.now ?? Date.now,
    verifyOptions: options.now ? { toleranceSeconds, now: options.now } : { toleranceSeconds },
    store,
    order: options.order && {
      rule: options.order as unknown as EventOrder<EventMap>,
      store: requireOrderedStore(store, "createReceiver"),
      waitMs: orderWaitMs(options.orderWaitMs),
    },
    bodyLimits: {
      maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, "maxBodyBytes"),
      bodyTimeoutMs: positiveInteger(options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, "bodyTimeoutMs"),
    },
    // A Map: a type named like an Object.prototype member (`constructor`) finds no schema, and the lookup hashes
    // the type once for the handler lookup too.
    schemas: new Map(Object.entries(options.schemas ?? {}) as [string, StandardSchemaV1 | undefined][]),
    // Named reads, one function each: a shared `event[field]` read sees two keys and goes megamorphic.
    typeOf: options.typeOf ?? ((event: DeliveryEvent) => nonEmptyString(event.type)),
    // Given the verified body too, from which the default reads a number's exact digits.
    idOf: options.idOf ?? ((event: DeliveryEvent, body: Uint8Array) => eventId(event.id, body)),
    leaseMs,
    handlerTimeoutMs,
    doneTtlMs,
    logger,
  };
}

export type { Logger } from "./logger";

export type ResolvedReceiverOptions = ReturnType<typeof resolveReceiverOptions>;
