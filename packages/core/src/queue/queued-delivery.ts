import { requireNodeCrypto } from "../crypto/node-crypto";
import type { DeliveryEvent } from "../event";
import type { DeliveryContext, DeliveryInfo } from "../receiver/handlers";
import { fromJobText, toJobText } from "./job-text";
import { type JobTraceContext, readJobTrace } from "./job-trace";

/**
 * What a queue job holds: the verified event and what the Receiver learnt about it, never the headers. Text the sender
 * chose is held so that every engine stores any event the Receiver accepts (`toJobText`): the event as its JSON text,
 * its type, delivery key and endpoint label escaped as inside a JSON string (unchanged for ordinary text).
 */
export interface QueuedDelivery {
  /** The verified (and, with a schema, validated) event, as JSON text. */
  event: string;
  /** `toJobText` of the event type. */
  type: string;
  /** `toJobText` of the delivery key. */
  deliveryKey: string;
  timestamp: number;
  secretIndex: number;
  /** `toJobText` of the endpoint label, if the secret resolver gave one. */
  endpoint?: string;
  /** SHA-256 of the verified body bytes, lowercase hex: proof of what was signed without keeping it. */
  verifiedBodySha256: string;
  /** The verified body bytes, base64, only when the enqueuer was asked to keep them (they may hold personal data). */
  verifiedBody?: string;
  /** The enqueue's trace context, when an instrumentation added one. */
  trace?: JobTraceContext;
}

/** What a worker's handler learns about the delivery besides the event. */
export interface WorkerContext extends DeliveryInfo {
  /** 1 on the first run of the job, 2 on the next (after a failure, or after a worker died holding it)… */
  attempt: number;
  /** The engine's job id, derived from `deliveryKey`. */
  jobId: string;
  verifiedBodySha256: string;
  /** Present only when the enqueuer kept the raw body. */
  verifiedBody?: Uint8Array;
}

/** What a job needs to run: the engine's id for it and which run this is. */
export interface JobRun {
  id: string;
  attempt: number;
}

/** A job's data, read and checked: the event for the handlers, their context, and the enqueue's trace context. */
export interface ReadJob {
  event: DeliveryEvent;
  context: WorkerContext;
  trace: JobTraceContext | undefined;
}

/** The job data for a verified delivery. */
export function toQueuedDelivery(event: object, context: DeliveryContext, keepVerifiedBody: boolean): QueuedDelivery {
  const crypto = requireNodeCrypto("enqueueTo");
  const { type, deliveryKey, timestamp, secretIndex, endpoint, verifiedBody } = context;
  const queued: QueuedDelivery = {
    event: JSON.stringify(event),
    type: toJobText(type),
    deliveryKey: toJobText(deliveryKey),
    timestamp,
    secretIndex,
    verifiedBodySha256: crypto.createHash("sha256").update(verifiedBody).digest("hex"),
  };
  if (endpoint !== undefined) queued.endpoint = toJobText(endpoint);
  if (keepVerifiedBody) queued.verifiedBody = Buffer.from(verifiedBody).toString("base64");
  return queued;
}

const isString = (value: unknown) => typeof value === "string";

/**
 * Checks what a job holds before any handler sees it: a job written by something else fails with a clear message.
 * Reads jobs enqueued before the event was held as JSON text too (the event an object, the strings as they were).
 */
export function readQueuedDelivery(data: unknown, job: JobRun): ReadJob {
  const queued = data as Record<string, unknown> | null;
  const event = queued?.event;
  const asText = typeof event === "string";
  if (
    (!asText && (typeof event !== "object" || event === null)) ||
    !isString(queued?.type) ||
    !isString(queued?.deliveryKey) ||
    !isString(queued?.verifiedBodySha256) ||
    typeof queued?.timestamp !== "number" ||
    typeof queued.secretIndex !== "number" ||
    (queued.endpoint !== undefined && !isString(queued.endpoint))
  ) {
    throw notADelivery(job);
  }
  const text = asText ? fromJobText : (stored: string) => stored;
  let context: WorkerContext;
  let parsed: unknown;
  try {
    parsed = asText ? JSON.parse(event) : event;
    context = {
      type: text(queued.type as string),
      deliveryKey: text(queued.deliveryKey as string),
      timestamp: queued.timestamp,
      secretIndex: queued.secretIndex,
      attempt: job.attempt,
      jobId: job.id,
      verifiedBodySha256: queued.verifiedBodySha256 as string,
    };
    if (queued.endpoint !== undefined) context.endpoint = text(queued.endpoint as string);
  } catch {
    throw notADelivery(job);
  }
  if (typeof parsed !== "object" || parsed === null) throw notADelivery(job);
  if (isString(queued.verifiedBody)) {
    context.verifiedBody = new Uint8Array(Buffer.from(queued.verifiedBody as string, "base64"));
  }
  return { event: parsed as DeliveryEvent, context, trace: readJobTrace(queued.trace) };
}

function notADelivery(job: JobRun): TypeError {
  return new TypeError(`Job ${job.id} does not hold a delivery enqueued by enqueueTo()`);
}
