import { requireNodeCrypto } from "../crypto/node-crypto";
import type { DeliveryEvent } from "../event";
import type { DeliveryContext, DeliveryInfo } from "../receiver/handlers";

/** What a queue job holds: the verified event and what the Receiver learnt about it, never the headers. */
export interface QueuedDelivery extends DeliveryInfo {
  /** The verified (and, with a schema, validated) event. */
  event: DeliveryEvent;
  /** SHA-256 of the verified body bytes, lowercase hex: proof of what was signed without keeping it. */
  verifiedBodySha256: string;
  /** The verified body bytes, base64, only when the enqueuer was asked to keep them (they may hold personal data). */
  verifiedBody?: string;
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

/** The job data for a verified delivery. */
export function toQueuedDelivery(event: object, context: DeliveryContext, keepVerifiedBody: boolean): QueuedDelivery {
  const crypto = requireNodeCrypto("enqueueTo");
  const { type, deliveryKey, timestamp, secretIndex, endpoint, verifiedBody } = context;
  const queued: QueuedDelivery = {
    event: event as DeliveryEvent,
    type,
    deliveryKey,
    timestamp,
    secretIndex,
    verifiedBodySha256: crypto.createHash("sha256").update(verifiedBody).digest("hex"),
  };
  if (endpoint !== undefined) queued.endpoint = endpoint;
  if (keepVerifiedBody) queued.verifiedBody = Buffer.from(verifiedBody).toString("base64");
  return queued;
}

const isString = (value: unknown) => typeof value === "string";

/** Checks what a job holds before any handler sees it: a job written by something else fails with a clear message. */
export function toWorkerContext(data: unknown, job: JobRun): WorkerContext {
  const queued = data as Partial<QueuedDelivery> | null;
  if (
    typeof queued?.event !== "object" ||
    queued.event === null ||
    !isString(queued.type) ||
    !isString(queued.deliveryKey) ||
    !isString(queued.verifiedBodySha256) ||
    typeof queued.timestamp !== "number" ||
    typeof queued.secretIndex !== "number" ||
    (queued.endpoint !== undefined && !isString(queued.endpoint))
  ) {
    throw new TypeError(`Job ${job.id} does not hold a delivery enqueued by enqueueTo()`);
  }
  const context: WorkerContext = {
    type: queued.type as string,
    deliveryKey: queued.deliveryKey as string,
    timestamp: queued.timestamp,
    secretIndex: queued.secretIndex,
    attempt: job.attempt,
    jobId: job.id,
    verifiedBodySha256: queued.verifiedBodySha256 as string,
  };
  if (queued.endpoint !== undefined) context.endpoint = queued.endpoint;
  if (isString(queued.verifiedBody)) {
    context.verifiedBody = new Uint8Array(Buffer.from(queued.verifiedBody as string, "base64"));
  }
  return context;
}
