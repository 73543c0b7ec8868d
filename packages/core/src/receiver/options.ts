import { DEFAULT_MAX_BODY_BYTES } from "../body/limits";
import type { DeliveryEvent } from "../event";
import { positiveInteger } from "../positive-integer";
import { normalizeSecrets, type Secret } from "../secrets";
import type { DeliveryStore } from "../store/delivery-store";
import { MemoryStore } from "../store/memory-store";
import { resolveTolerance, type VerifyOptions } from "../tolerance";
import type { EventMap } from "./events";
import type { StandardSchemaV1 } from "./standard-schema";

/** A Standard Schema validator per event type; a payload that fails its schema is refused with 400. */
export type EventSchemas<Events extends EventMap> = {
  [Type in keyof Events]?: StandardSchemaV1<unknown, Events[Type]>;
};

export interface ReceiverOptions<Events extends EventMap> extends VerifyOptions {
  /** The endpoint secret, or several while rotating it. */
  secret: Secret;
  /** Where claims and completed deliveries are kept. Default: an in-process `MemoryStore`. */
  store?: DeliveryStore;
  /** Largest accepted body after decoding, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  schemas?: EventSchemas<Events>;
  /** Reads the event type. Default: the payload's string `type` field. */
  typeOf?: (event: DeliveryEvent) => string | undefined;
  /** Reads the event id used for dedup. Default: the payload's string `id` field. */
  idOf?: (event: DeliveryEvent) => string | undefined;
  /** How long a claim holds while handlers run, in ms; after it another instance may take over. Default 60 s. */
  leaseMs?: number;
  /** How long a handled delivery is remembered, in ms; at least the tolerance. Default 24 h. */
  doneTtlMs?: number;
  /** Where failures nobody subscribed to with `onError` are logged. Default `console`. */
  logger?: { error(...values: unknown[]): void };
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_DONE_TTL_MS = 24 * 60 * 60 * 1000;

const nonEmptyString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** Checks every option once, at setup, so a misconfiguration fails at start-up rather than per delivery. */
export function resolveReceiverOptions<Events extends EventMap>(options: ReceiverOptions<Events>) {
  const toleranceSeconds = resolveTolerance(options);
  const doneTtlMs = positiveInteger(options.doneTtlMs ?? DEFAULT_DONE_TTL_MS, "doneTtlMs");
  if (doneTtlMs < toleranceSeconds * 1000) {
    throw new TypeError("doneTtlMs must be ≥ the tolerance");
  }
  return {
    secrets: normalizeSecrets(options.secret),
    verifyOptions: options.now ? { toleranceSeconds, now: options.now } : { toleranceSeconds },
    store: options.store ?? new MemoryStore(options.now ? { now: options.now } : {}),
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, "maxBodyBytes"),
    // A Map: a type named like an Object.prototype member (`constructor`) finds no schema, and the lookup hashes
    // the type once for the handler lookup too.
    schemas: new Map(Object.entries(options.schemas ?? {}) as [string, StandardSchemaV1 | undefined][]),
    // Named reads, one function each: a shared `event[field]` read sees two keys and goes megamorphic.
    typeOf: options.typeOf ?? ((event: DeliveryEvent) => nonEmptyString(event.type)),
    idOf: options.idOf ?? ((event: DeliveryEvent) => nonEmptyString(event.id)),
    leaseMs: positiveInteger(options.leaseMs ?? DEFAULT_LEASE_MS, "leaseMs"),
    doneTtlMs,
    logger: options.logger ?? console,
  };
}

export type ResolvedReceiverOptions = ReturnType<typeof resolveReceiverOptions>;
