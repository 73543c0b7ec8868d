import { DEFAULT_BODY_RATE_GRACE_MS, DEFAULT_MIN_BODY_BYTES_PER_SECOND } from "../body/body-watch";
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from "../body/limits";
import type { SecretResolver } from "../endpoint/secret-resolver";
import { type EndpointSecret, toSecretSet } from "../endpoint/secret-set";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { type Logger, safeLogger } from "../ground/logger";
import { positiveInteger, wholeNumber } from "../ground/whole-numbers";
import type { Scheme } from "../schemes/scheme";
import { SERVICE_SIGNATURE } from "../schemes/service-signature";
import { type DeliveryStore, requireOrderedStore } from "../store/delivery-store";
import { MemoryStore } from "../store/memory-store";
import { checkTransactions, requireTransactionalStore, type Transactions } from "../store/transactions";
import { resolveTolerance, type VerifyOptions } from "../verification/tolerance";
import { type EventOrder, orderWaitMs } from "./order";
import { checkedPublicUrl, type RequestUrlOptions } from "./request-url";
import type { StandardSchemaV1 } from "./standard-schema";

/** A Standard Schema validator per event type; a payload that fails its schema is refused with 400. */
export type EventSchemas<Events extends EventMap> = {
  [Type in keyof Events]?: StandardSchemaV1<unknown, Events[Type]>;
};

/**
 * What `createReceiver` takes: the secret (or a resolver), and every limit, store and hook, each with a default.
 *
 * @example
 * ```ts
 * import { createReceiver, type MessageEvents, type ReceiverOptions } from "@tidings/core";
 *
 * // Options read from the environment once, checked by createReceiver at start-up.
 * export function receiverOptions(env: NodeJS.ProcessEnv): ReceiverOptions<MessageEvents> {
 *   return { secret: env.WEBHOOK_SECRET!, maxBodyBytes: 256 * 1024, handlerTimeoutMs: 10_000 };
 * }
 *
 * export const receiver = createReceiver(receiverOptions(process.env));
 * ```
 */
export interface ReceiverOptions<Events extends EventMap> extends Omit<VerifyOptions, "request">, RequestUrlOptions {
  /**
   * The endpoint secret, or several while rotating it (`{ value, notAfter }` retires one on schedule); or a function
   * that finds the secret(s) and an endpoint label per request, e.g. from a database.
   */
  secret: EndpointSecret | SecretResolver;
  /**
   * How the sender signs (`@tidings/core/schemes`): which headers, what is signed, how secrets are written, the id and
   * type. Default: the service's `Service-Signature`. Several: a request is read by the first whose headers it carries
   * (a secret resolver may then name the scheme it expects).
   */
  scheme?: Scheme<Events> | readonly Scheme[];
  /** Where claims and completed deliveries are kept. Default: an in-process `MemoryStore`. */
  store?: DeliveryStore;
  /** Largest accepted body after decoding, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long a client may take to send the body, in ms, before a 408. Default 10 s. */
  bodyTimeoutMs?: number;
  /**
   * The slowest a body may arrive, in bytes per second on average since its read began, once `bodyRateGraceMs` passed
   * (checked again every as long): a slower one is answered 408 `body_too_slow`. When every delivery slot is taken, the
   * body furthest behind this rate is cut at once, grace or not, and its slot goes to the new delivery. 0 turns both
   * off. Default 240 (Kestrel's `MinRequestBodyDataRate`).
   */
  minBodyBytesPerSecond?: number;
  /** How long a body may arrive slower than `minBodyBytesPerSecond`, in ms, before its rate is checked. Default 5 s. */
  bodyRateGraceMs?: number;
  schemas?: EventSchemas<Events>;
  /** Reads the event type. Default: the scheme's (the service's: the payload's string `type` field). */
  typeOf?: (event: DeliveryEvent) => string | undefined;
  /**
   * Reads the event id used for dedup. Default: the scheme's (the service's: the payload's `id` field, a non-empty
   * string or a number, one past 2^53 by its exact digits in the body, as `JSON.parse` rounds it). A custom one sees
   * numbers already rounded.
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
  /**
   * How many deliveries this Receiver takes at once, from the start of the body's read to the answer. Past it a
   * delivery is answered 503 `overloaded` with `Retry-After` before its body is read: a burst beyond what the handlers
   * can take costs the sender a retry, not this process its memory. Default 256 (with the default 1 MiB body limit,
   * at most 256 MiB of bodies held).
   */
  maxConcurrentDeliveries?: number;
  /**
   * Runs each delivery's handlers in one database transaction (`pgTransactions(pool)`, `pgliteTransactions(db)`… from
   * `@tidings/postgres`), handed to them as `ctx.transaction`: their writes, the delivery's done mark and (with
   * `order`) its object's position commit together, or roll back together when a handler throws (then the answer is
   * 500 and nothing is marked). Needs a store that can join the transaction: `PostgresStore` on the same database.
   */
  transactions?: Transactions<unknown>;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
export const DEFAULT_DONE_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_RESOLVER_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_CONCURRENT_DELIVERIES = 256;

function schemeList(scheme: Scheme | readonly Scheme[]): readonly Scheme[] {
  const list: readonly Scheme[] = Array.isArray(scheme) ? scheme : [scheme as Scheme];
  if (list.length === 0 || list.some((one) => typeof one?.read !== "function")) {
    throw new TypeError("scheme must be a scheme from @tidings/core/schemes, or a non-empty array of them");
  }
  return list;
}

/** Checks every option once, at setup, so a misconfiguration fails at start-up rather than per delivery. */
export function resolveReceiverOptions<Events extends EventMap>(options: ReceiverOptions<Events>) {
  const schemes = options.scheme === undefined ? [SERVICE_SIGNATURE] : schemeList(options.scheme);
  const schemeWindows = options.toleranceSeconds === undefined;
  // The longest window any scheme verifies with: dedup must outlast it.
  const toleranceSeconds = Math.max(
    resolveTolerance(options),
    ...(schemeWindows ? schemes.map((scheme) => scheme.toleranceSeconds ?? 0) : []),
  );
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
    // One of the two: fixed secrets, checked now against the schemes, or a resolver whose answers are checked so
    // when it answers (EndpointLookup).
    secrets: typeof secret === "function" ? undefined : toSecretSet(secret, schemes),
    resolveSecret: typeof secret === "function" ? secret : undefined,
    resolverTimeoutMs: positiveInteger(options.resolverTimeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS, "resolverTimeoutMs"),
    maxConcurrentDeliveries: positiveInteger(
      options.maxConcurrentDeliveries ?? DEFAULT_MAX_CONCURRENT_DELIVERIES,
      "maxConcurrentDeliveries",
    ),
    nowMs: options.now ?? Date.now,
    verifyOptions: options.now
      ? { toleranceSeconds: resolveTolerance(options), now: options.now }
      : { toleranceSeconds: resolveTolerance(options) },
    schemeWindows,
    store,
    transactions: options.transactions && {
      run: checkTransactions(options.transactions, "createReceiver"),
      store: requireTransactionalStore(store, "createReceiver"),
    },
    order: options.order && {
      rule: options.order as unknown as EventOrder<EventMap>,
      store: requireOrderedStore(store, "createReceiver"),
      waitMs: orderWaitMs(options.orderWaitMs),
    },
    bodyLimits: {
      maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, "maxBodyBytes"),
      bodyTimeoutMs: positiveInteger(options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, "bodyTimeoutMs"),
      minBodyBytesPerSecond: wholeNumber(
        options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
        "minBodyBytesPerSecond",
      ),
      bodyRateGraceMs: positiveInteger(options.bodyRateGraceMs ?? DEFAULT_BODY_RATE_GRACE_MS, "bodyRateGraceMs"),
    },
    // A Map: a type named like an Object.prototype member (`constructor`) finds no schema, and the lookup hashes
    // the type once for the handler lookup too.
    schemas: new Map(Object.entries(options.schemas ?? {}) as [string, StandardSchemaV1 | undefined][]),
    // Read by the scheme unless given here.
    typeOf: options.typeOf,
    idOf: options.idOf,
    schemes,
    // Only a scheme that signs the request's URL or answers a handshake has its URL rebuilt.
    readsRequest: schemes.some((scheme) => scheme.readsRequest === true || scheme.handshake !== undefined),
    requestUrl: { publicUrl: checkedPublicUrl(options.publicUrl), trustProxy: options.trustProxy === true },
    leaseMs,
    handlerTimeoutMs,
    doneTtlMs,
    logger,
  };
}

export type { Logger } from "../ground/logger";

export type ResolvedReceiverOptions = ReturnType<typeof resolveReceiverOptions>;
